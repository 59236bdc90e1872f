// The endpoints a production build really serves, read from Next's own manifests, so the access
// matrix (e2e/access.spec.ts) tests what was built rather than a list someone kept by hand: a
// new page, route handler or server action that lib/auth/permissions.ts does not name fails the test.
// Pure functions over the parsed JSON; the tests read the files.

/** `.next/server/app-paths-manifest.json`: app path (`/api/me/route`, `/(signed-in)/page`) → bundle. */
export type AppPathsManifest = Record<string, string>;

/** `.next/server/server-reference-manifest.json`, the part we read. */
export type ServerReferenceManifest = {
  node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
};

export type BuildAction = {
  /** The action id the client sends in the `Next-Action` header. */
  id: string;
  exportedName: string;
  /** A URL of a page the action is bundled with, to post it to. */
  route: string;
};

/** The HTTP methods a route handler may export that the matrix probes (HEAD and OPTIONS Next derives itself). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `/(signed-in)/(admin)/admin/users` → `/admin/users`: route groups are not part of the URL. */
export function withoutGroups(appPath: string): string {
  return appPath.replace(/\/\([^)/]+\)/g, '') || '/';
}

/** Every route handler of the build as its path pattern, e.g. `/api/runs/[id]/events`, sorted. */
export function routeHandlersOf(manifest: AppPathsManifest): string[] {
  return Object.keys(manifest)
    .filter((key) => key.endsWith('/route'))
    .map((key) => withoutGroups(key.slice(0, -'/route'.length)))
    .sort();
}

/**
 * Every page of the build as its path pattern (`/cases/[id]`, `/` for the signed-in home),
 * sorted, without Next's own (`/_not-found`, `/_global-error`).
 */
export function pagesOf(manifest: AppPathsManifest): string[] {
  return Object.keys(manifest)
    .filter((key) => key.endsWith('/page'))
    .map((key) => withoutGroups(key.slice(0, -'/page'.length)))
    .filter((page) => !page.startsWith('/_'))
    .sort();
}

/** Every server action of the build, with a page it can be posted to. */
export function serverActionsOf(manifest: ServerReferenceManifest): BuildAction[] {
  return Object.entries(manifest.node).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((w) => w.endsWith('/page')) ?? Object.keys(entry.workers)[0];
    if (!worker) throw new Error(`Server action ${entry.exportedName ?? id} is bundled with no page.`);
    // app/(signed-in)/(admin)/admin/users/page → /admin/users
    const route = withoutGroups(worker.replace(/^app/, '').replace(/\/page$/, ''));
    return { id, exportedName: entry.exportedName ?? '', route };
  });
}

/**
 * Whether a concrete URL fills a path pattern: `[id]` matches one segment, `[...x]` one or more,
 * `[[...x]]` zero or more; the query string is ignored.
 */
export function matchesPattern(pattern: string, url: string): boolean {
  const pathname = url.split('?')[0];
  const source = pattern
    .split('/')
    .map((segment) => {
      if (/^\[\[\.\.\.[^\]]+\]\]$/.test(segment)) return '(?:/[^/]+)*';
      if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return '(?:/[^/]+)+';
      if (/^\[[^\]]+\]$/.test(segment)) return '/[^/]+';
      return segment ? `/${segment.replace(/[.*+?^${}()|\\]/g, '\\$&')}` : '';
    })
    .join('');
  return new RegExp(`^${source || '/'}$`).test(pathname);
}

/** The methods an `Allow` header lists, without the HEAD and OPTIONS Next adds to every handler. */
export function allowedMethods(allow: string | undefined): string[] {
  return (allow ?? '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS')
    .sort();
}
