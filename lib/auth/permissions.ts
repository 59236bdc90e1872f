// Who may do what: the single map that pages, server actions, route handlers and the
// access-matrix tests all read. Pure data, safe to import anywhere (including e2e tests).
import type { Role } from '@/lib/db/schema';

export { ROLES, type Role } from '@/lib/db/schema';

export const PERMISSIONS = {
  /** Any signed-in user: home page, own profile, sign-out. */
  'app:use': ['rm', 'committee', 'evaluator', 'admin'],
  'cases:read-own': ['rm'],
  'companies:read': ['rm', 'admin'],
  /** Import, add, edit, delete and re-tag evidence; fetch filings from OpenDART and EDGAR. */
  'pool:write': ['rm', 'admin'],
  'review:read': ['committee'],
  'ratings:read-own': ['evaluator'],
  'users:manage': ['admin'],
  'settings:read': ['admin'],
  'studies:manage': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Every protected page and the permission it needs; `sample` fills dynamic segments for tests. */
export const PAGES = [
  { path: '/', permission: 'app:use' },
  { path: '/logout', permission: 'app:use' },
  { path: '/cases', permission: 'cases:read-own' },
  { path: '/companies', permission: 'companies:read' },
  { path: '/companies/[id]', permission: 'companies:read', sample: '/companies/tesla' },
  {
    path: '/companies/[id]/documents/[documentId]',
    permission: 'companies:read',
    sample: '/companies/tesla/documents/tesla--10k-fy2024-item-1c-cybersecurity',
  },
  { path: '/import', permission: 'pool:write' },
  { path: '/review', permission: 'review:read' },
  { path: '/ratings', permission: 'ratings:read-own' },
  { path: '/admin/users', permission: 'users:manage' },
  { path: '/admin/settings', permission: 'settings:read' },
  { path: '/admin/studies', permission: 'studies:manage' },
] as const satisfies readonly { path: string; permission: Permission; sample?: string }[];

/**
 * Every server action by its exported name and the permission it needs. The access-matrix
 * test calls each one as every role and fails on an action missing from this list.
 */
export const ACTIONS = {
  signOutAction: 'app:use',
  createUser: 'users:manage',
  changeUserRole: 'users:manage',
  setUserDisabled: 'users:manage',
  resetUserPassword: 'users:manage',
  addEvidence: 'pool:write',
  updateEvidence: 'pool:write',
  deleteEvidence: 'pool:write',
  tagEvidence: 'pool:write',
  importFiles: 'pool:write',
  fetchCompanyFilings: 'pool:write',
} as const satisfies Record<string, Permission>;

/** Every route handler but the public ones (health, Auth.js), with the permission it needs. */
export const API_ROUTES = [{ method: 'GET', path: '/api/me', permission: 'app:use' }] as const satisfies readonly {
  method: string;
  path: string;
  permission: Permission;
}[];

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
