// Who may do what: the single map that pages, server actions, route handlers and the
// access-matrix tests all read. Pure data, safe to import anywhere (including e2e tests).
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import type { Role } from '@/lib/domain/vocabulary';

export const PERMISSIONS = {
  /** Any signed-in user: home page, own profile, sign-out. */
  'app:use': ['rm', 'committee', 'evaluator', 'admin'],
  'cases:read-own': ['rm'],
  /** Create cases, start, cancel and retry runs, submit to the committee (own cases: lib/auth/run-access.ts). */
  'cases:write': ['rm'],
  /** Case, run, report and export pages and routes; which case is decided by lib/auth/run-access.ts. */
  'runs:read': ['rm', 'committee'],
  /** The Companies list: every company in the pool. */
  'companies:read': ['rm', 'admin'],
  /**
   * A company's page, its evidence and documents: RMs and admins any company, the committee the
   * borrower of a case it may read, 404 for another (lib/auth/access-rules.ts canReadCompany).
   */
  'borrowers:read': ['rm', 'committee', 'admin'],
  /** Import, add, edit, delete and re-tag evidence; fetch filings from OpenDART and EDGAR. */
  'pool:write': ['rm', 'admin'],
  /** Watch a borrower's filings, change or end one's own watch, re-screen from one's own alert (lib/jobs/watch.ts). */
  'watch:write': ['rm'],
  /** Check every watch on a borrower at once ("check now" on the company page). */
  'watch:check': ['admin'],
  'review:read': ['committee'],
  /** Record a case's decision (submitted cases only: lib/db/queries/review.ts). */
  'review:decide': ['committee'],
  /** Comment threads on a case: the committee starts them, the owning RM replies (lib/db/queries/review.ts). */
  'review:comment': ['committee', 'rm'],
  /** The hash-chained audit log and its verification. */
  'audit:read': ['admin'],
  'ratings:read-own': ['evaluator'],
  /** Autosave and submit one's own ratings in an open study (ownership: lib/db/queries/studies.ts). */
  'ratings:write': ['evaluator'],
  'users:manage': ['admin'],
  'settings:read': ['admin'],
  /** Settings an admin changes in the app: the committee's quorum (docs/oversight.md), the system card's owner (lib/db/queries/settings.ts). */
  'settings:write': ['admin'],
  /** Retention periods, legal holds and the purge (docs/retention.md). */
  'retention:manage': ['admin'],
  'studies:manage': ['admin'],
  /** GET /api/metrics with a session; scrapers may use METRICS_TOKEN instead (app/api/metrics/route.ts). */
  'ops:metrics': ['admin'],
  /** The examiner's case file (docs/case-file.md): the committee for the cases it reviews, an administrator for any. */
  'cases:file-export': ['committee', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Every protected page and the permission it needs; `sample` fills dynamic segments for tests. */
export const PAGES = [
  { path: '/', permission: 'app:use' },
  { path: '/logout', permission: 'app:use' },
  { path: '/inbox', permission: 'app:use' },
  /** The system card (docs/system-card.md): every role. */
  { path: '/about', permission: 'app:use' },
  { path: '/cases', permission: 'cases:read-own' },
  { path: '/cases/new', permission: 'cases:write' },
  { path: '/companies', permission: 'companies:read' },
  // The samples are the borrower of the demo's submitted case and one of its documents, which the
  // committee may read too (lib/demo/seed.ts).
  { path: '/companies/[id]', permission: 'borrowers:read', sample: '/companies/samsung-electronics' },
  {
    path: '/companies/[id]/documents/[documentId]',
    permission: 'borrowers:read',
    sample: '/companies/samsung-electronics/documents/samsung-electronics--2022h1-ii6-major-contracts-and-rnd',
  },
  // About one case or run: the permission first (403), then lib/auth/run-access.ts per case
  // (404 for a case one may not see). The samples are the demo RM's submitted case and its run
  // (lib/demo/seed.ts), which the committee may read too.
  { path: '/cases/[id]', permission: 'runs:read', sample: `/cases/${DEMO_IDS.submittedCase}` },
  { path: '/cases/[id]/compare', permission: 'runs:read', sample: `/cases/${DEMO_IDS.submittedCase}/compare` },
  /** A case's stability set (docs/stability.md); a set exists only once started, so e2e/stability.spec.ts samples it. */
  { path: '/cases/[id]/stability/[set]', permission: 'runs:read', sampledIn: 'e2e/stability.spec.ts' },
  { path: '/runs/[id]', permission: 'runs:read', sample: `/runs/${DEMO_IDS.run}` },
  { path: '/runs/[id]/report', permission: 'runs:read', sample: `/runs/${DEMO_IDS.run}/report` },
  { path: '/import', permission: 'pool:write' },
  { path: '/review', permission: 'review:read' },
  { path: '/ratings', permission: 'ratings:read-own' },
  { path: '/admin/users', permission: 'users:manage' },
  { path: '/admin/settings', permission: 'settings:read' },
  { path: '/admin/studies', permission: 'studies:manage' },
  { path: '/admin/audit', permission: 'audit:read' },
  { path: '/admin/holds', permission: 'retention:manage' },
  { path: '/admin/studies/new', permission: 'studies:manage' },
  // Study and assignment ids exist only once an admin makes a study (the demo seed has none), so
  // e2e/studies.spec.ts checks every role against real ones; the ratings page also answers 404
  // to anyone but the assigned evaluator.
  { path: '/admin/studies/[id]', permission: 'studies:manage', sampledIn: 'e2e/studies.spec.ts' },
  { path: '/admin/studies/[id]/results', permission: 'studies:manage', sampledIn: 'e2e/studies.spec.ts' },
  { path: '/ratings/[assignmentId]', permission: 'ratings:read-own', sampledIn: 'e2e/studies.spec.ts' },
] as const satisfies readonly { path: string; permission: Permission; sample?: string; sampledIn?: string }[];

/** Pages anyone may open: the sign-in page (proxy.ts lets it through; see PUBLIC_PATHS). */
export const PUBLIC_PAGES = ['/login'] as const;

/**
 * Every server action by its exported name and the permission it needs. The access-matrix
 * test calls each one as every role and fails on an action missing from this list.
 */
export const ACTIONS = {
  signOutAction: 'app:use',
  /** One's own inbox items only (lib/db/queries/notifications.ts). */
  markNotificationsRead: 'app:use',
  createUser: 'users:manage',
  changeUserRole: 'users:manage',
  setUserDisabled: 'users:manage',
  resetUserPassword: 'users:manage',
  unlockUser: 'users:manage',
  addEvidence: 'pool:write',
  updateEvidence: 'pool:write',
  deleteEvidence: 'pool:write',
  tagEvidence: 'pool:write',
  fetchCompanyFilings: 'pool:write',
  /** One's own watch entries only (lib/db/queries/watch.ts); the case must be one's own. */
  watchCompany: 'watch:write',
  unwatchCompany: 'watch:write',
  checkWatchNow: 'watch:check',
  /** The alert must be of one's own watch (lib/jobs/watch.ts rescreenFromAlert). */
  rescreenAlert: 'watch:write',
  acceptDocumentCandidate: 'pool:write',
  rejectDocumentCandidate: 'pool:write',
  /** Only a reading that failed or stopped is read again (lib/jobs/document-reading.ts readDocumentAgain). */
  rereadDocument: 'pool:write',
  createCase: 'cases:write',
  startRun: 'cases:write',
  submitCase: 'cases:write',
  cancelRun: 'cases:write',
  retryRun: 'cases:write',
  addComment: 'review:comment',
  recordDecision: 'review:decide',
  /** The committee's quorum (docs/oversight.md). */
  setQuorum: 'settings:write',
  /** A borrower that is an individual in business (docs/oversight.md). */
  markSoleProprietor: 'pool:write',
  /** Several runs of one system on a case, as one stability set (docs/stability.md). */
  startStabilitySet: 'cases:write',
  createStudy: 'studies:manage',
  changeStudyStatus: 'studies:manage',
  saveRating: 'ratings:write',
  submitRating: 'ratings:write',
  runPairwiseJudge: 'cases:write',
  runRubricJudge: 'cases:write',
  saveRetentionSettings: 'retention:manage',
  placeLegalHold: 'retention:manage',
  liftLegalHold: 'retention:manage',
  setSystemOwnerAction: 'settings:write',
} as const satisfies Record<string, Permission>;

/**
 * Every route handler but the public ones, one entry per exported method, with the permission
 * it needs. The access matrix (e2e/access.spec.ts) calls each as every role: an allowed role gets
 * `allowed` (200 unless said otherwise), the others 403, a visitor 401. It also fails on a
 * route handler of the build missing from here and PUBLIC_ROUTES, and on any other method than
 * the ones listed answering anything but 405.
 */
export const API_ROUTES = [
  { method: 'GET', path: '/api/me', permission: 'app:use' },
  { method: 'GET', path: '/api/runs/[id]/events', permission: 'runs:read', sample: `/api/runs/${DEMO_IDS.run}/events` },
  { method: 'GET', path: '/api/cases/[id]/runs', permission: 'runs:read', sample: `/api/cases/${DEMO_IDS.submittedCase}/runs` },
  { method: 'GET', path: '/api/runs/[id]/export', permission: 'runs:read', sample: `/api/runs/${DEMO_IDS.run}/export?format=json` },
  { method: 'GET', path: '/api/metrics', permission: 'ops:metrics' },
  { method: 'GET', path: '/api/cases/[id]/file', permission: 'cases:file-export', sample: `/api/cases/${DEMO_IDS.submittedCase}/file` },
  // The Import page's upload. An empty POST is refused as a bad request (no files) to a role that
  // may import; the upload itself is lib/pool/import/upload.test.ts and e2e/security/import.spec.ts.
  { method: 'POST', path: '/api/import', permission: 'pool:write', allowed: 400 },
  // A filing or document uploaded from a company's page; empty, it is a bad request as above
  // (lib/pool/documents/review.test.ts and e2e/documents.spec.ts upload real ones).
  { method: 'POST', path: '/api/import/documents', permission: 'pool:write', allowed: 400 },
  // The Import page's template file (CSV by default; lib/pool/import/template.ts).
  { method: 'GET', path: '/api/templates/evidence', permission: 'pool:write' },
  // The demo seed has no study, and the role check comes before any lookup: a made-up id is
  // refused to other roles and not found for an admin (e2e/studies.spec.ts covers a real study).
  {
    method: 'GET',
    path: '/api/studies/[id]/ratings',
    permission: 'studies:manage',
    sample: '/api/studies/00000000-0000-4000-8000-000000000000/ratings',
    allowed: 404,
  },
] as const satisfies readonly {
  method: string;
  path: string;
  permission: Permission;
  sample?: string;
  /** The status an allowed role gets from `sample`, when not 200. */
  allowed?: number;
}[];

/**
 * Route handlers anyone may call (proxy.ts lets their paths through: PUBLIC_PATHS), with the
 * methods they export; `sample` is a URL that answers 200 without a session.
 */
export const PUBLIC_ROUTES = [
  { path: '/api/health', methods: ['GET'], sample: '/api/health' },
  { path: '/api/auth/[...nextauth]', methods: ['GET', 'POST'], sample: '/api/auth/csrf' },
] as const satisfies readonly { path: string; methods: readonly string[]; sample: string }[];

/** Actions anyone may call, signed in or not. */
export const PUBLIC_ACTIONS = ['signInAction', 'signInWithSsoAction'] as const;

export type NavItem = { href: string; label: string };

export const NAV: Record<Role, NavItem[]> = {
  rm: [
    { href: '/cases', label: 'Cases' },
    { href: '/companies', label: 'Companies' },
  ],
  committee: [{ href: '/review', label: 'Review' }],
  evaluator: [{ href: '/ratings', label: 'My ratings' }],
  admin: [
    { href: '/admin/users', label: 'Users' },
    { href: '/admin/settings', label: 'Settings' },
    { href: '/admin/studies', label: 'Studies' },
    { href: '/admin/audit', label: 'Audit log' },
    { href: '/admin/holds', label: 'Legal holds' },
  ],
};

export const ROLE_LABELS: Record<Role, string> = {
  rm: 'Relationship manager',
  committee: 'Credit committee',
  evaluator: 'Evaluator',
  admin: 'Administrator',
};

/** Paths anyone may open; everything else needs a session (proxy.ts). */
export const PUBLIC_PATHS = ['/login', '/api/health', '/api/auth'];

export function isPublicPath(pathname: string) {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
