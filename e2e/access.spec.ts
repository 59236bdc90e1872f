// The access matrix, generated from lib/auth/permissions.ts: every role and an anonymous
// visitor against every protected page, every route handler and method, and every server action
// in the build. Pages, route handlers and actions come from the build's own manifests
// (lib/auth/endpoints.ts), so one missing from the map fails here.
import fs from 'node:fs';
import path from 'node:path';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { allowedMethods, HTTP_METHODS, pagesOf, routeHandlersOf, serverActionsOf } from '../lib/auth/endpoints';
import { ACTIONS, API_ROUTES, can, PAGES, PUBLIC_ACTIONS, PUBLIC_PAGES, PUBLIC_ROUTES } from '../lib/auth/permissions';
import { ROLES, type Role } from '../lib/domain/vocabulary';
import { DEMO_PASSWORD, DEMO_USERS } from './fixtures';

function manifest(name: string) {
  return JSON.parse(fs.readFileSync(path.join(process.cwd(), '.next', 'server', name), 'utf8'));
}

/** Server actions of the production build, from Next's own manifest. */
const buildActions = () => serverActionsOf(manifest('server-reference-manifest.json'));

/** Route handlers of the production build, e.g. `/api/runs/[id]/events`. */
const buildRoutes = () => routeHandlersOf(manifest('app-paths-manifest.json'));

/** Pages of the production build, e.g. `/cases/[id]`. */
const buildPages = () => pagesOf(manifest('app-paths-manifest.json'));

/** Every declared route handler once: a URL to call it by, its methods, and whether it is public. */
function declaredRoutes() {
  const routes = new Map<string, { url: string; methods: string[]; public: boolean }>();
  for (const api of API_ROUTES) {
    const known = routes.get(api.path);
    if (known) known.methods.push(api.method);
    else routes.set(api.path, { url: 'sample' in api ? api.sample : api.path, methods: [api.method], public: false });
  }
  for (const r of PUBLIC_ROUTES) routes.set(r.path, { url: r.sample, methods: [...r.methods], public: true });
  return routes;
}

/** Route handlers proxy.ts does not run for (its matcher): they check the session themselves. */
const PROXY_SKIPS = ['/api/import', '/api/import/documents'];

async function signedInContext(baseURL: string, role: Role | 'anonymous'): Promise<APIRequestContext> {
  // With the Origin a browser sends on every POST: without one, proxy.ts refuses any
  // state-changing request (e2e/security/origin.spec.ts), and the matrix would test only that.
  const context = await request.newContext({ baseURL, maxRedirects: 0, extraHTTPHeaders: { origin: new URL(baseURL).origin } });
  if (role === 'anonymous') return context;
  // Sign in through Auth.js's own endpoints, exactly as a browser form would.
  const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await context.post('/api/auth/callback/credentials', {
    form: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD, csrfToken, callbackUrl: '/' },
  });
  expect(response.status(), `sign-in as ${role}`).toBe(302);
  expect(response.headers().location, `sign-in as ${role}`).not.toContain('error');
  return context;
}

test.describe('access matrix', () => {
  for (const role of [...ROLES, 'anonymous'] as const) {
    test(`pages as ${role}`, async ({ baseURL }) => {
      const context = await signedInContext(baseURL!, role);
      for (const page of PAGES) {
        if ('sampledIn' in page) continue;
        const url = 'sample' in page ? page.sample : page.path;
        const response = await context.get(url);
        if (role === 'anonymous') {
          expect([302, 303, 307], `${url} as anonymous`).toContain(response.status());
          expect(response.headers().location, `${url} as anonymous`).toContain('/login');
        } else if (can(role, page.permission)) {
          expect(response.status(), `${url} as ${role}`).toBe(200);
        } else {
          expect(response.status(), `${url} as ${role}`).toBe(403);
        }
      }
      await context.dispose();
    });
  }

  for (const role of [...ROLES, 'anonymous'] as const) {
    test(`route handlers as ${role}`, async ({ baseURL }) => {
      const context = await signedInContext(baseURL!, role);
      for (const api of API_ROUTES) {
        const response = await context.fetch('sample' in api ? api.sample : api.path, { method: api.method });
        const label = `${api.method} ${api.path} as ${role}`;
        if (role === 'anonymous') expect(response.status(), label).toBe(401);
        else if (can(role, api.permission)) expect(response.status(), label).toBe('allowed' in api ? api.allowed : 200);
        else expect(response.status(), label).toBe(403);
      }
      await context.dispose();
    });
  }

  test('the committee opens the borrower of a case it reviews, and no other company', async ({ baseURL }) => {
    // Samsung Electronics borrows in the demo's submitted case (lib/demo/seed.ts); Monro is no
    // submitted case's borrower in any spec, so it stays closed to the committee (404, as a case
    // it may not see), while the RM reads it.
    const committee = await signedInContext(baseURL!, 'committee');
    expect((await committee.get('/companies/samsung-electronics')).status()).toBe(200);
    expect((await committee.get('/companies/samsung-electronics/documents/samsung-electronics--2022h1-xi2-xi3-contingencies-and-sanctions')).status()).toBe(
      200,
    );
    expect((await committee.get('/companies/monro-inc')).status()).toBe(404);
    expect((await committee.get('/companies/monro-inc/documents/monro-inc--earnings-call-q3-fy2020')).status()).toBe(404);
    expect((await committee.get('/companies')).status()).toBe(403);
    await committee.dispose();
    const rm = await signedInContext(baseURL!, 'rm');
    expect((await rm.get('/companies/monro-inc')).status()).toBe(200);
    await rm.dispose();
  });

  test('every page in the build is in the permission map', () => {
    const built = buildPages();
    expect(built.length, 'pages in .next (run after next build)').toBeGreaterThan(0);
    const declared: string[] = [...PAGES.map((p) => p.path), ...PUBLIC_PAGES];
    expect(
      built.filter((p) => !declared.includes(p)),
      'pages missing from PAGES and PUBLIC_PAGES',
    ).toEqual([]);
    expect(
      declared.filter((p) => !built.includes(p)),
      'map entries with no page in the build',
    ).toEqual([]);
  });

  test('every route handler in the build is in the permission map', () => {
    const built = buildRoutes();
    expect(built.length, 'route handlers in .next (run after next build)').toBeGreaterThan(0);
    const declared = [...declaredRoutes().keys()];
    expect(
      built.filter((p) => !declared.includes(p)),
      'route handlers missing from API_ROUTES and PUBLIC_ROUTES',
    ).toEqual([]);
    expect(
      declared.filter((p) => !built.includes(p)),
      'map entries with no route handler in the build',
    ).toEqual([]);
  });

  test('each route handler exports exactly the methods the map lists', async ({ baseURL }) => {
    // Next answers OPTIONS itself with the methods the module exports (plus HEAD and OPTIONS).
    const context = await signedInContext(baseURL!, 'admin');
    for (const [route, { url, methods }] of declaredRoutes()) {
      const response = await context.fetch(url, { method: 'OPTIONS' });
      expect(response.status(), `OPTIONS ${route}`).toBe(204);
      expect(allowedMethods(response.headers().allow), `methods ${route} exports`).toEqual([...methods].sort());
    }
    await context.dispose();
  });

  for (const role of [...ROLES, 'anonymous'] as const) {
    test(`other methods get 405, never data, as ${role}`, async ({ baseURL }) => {
      const context = await signedInContext(baseURL!, role);
      for (const [route, { url, methods, public: open }] of declaredRoutes()) {
        for (const method of HTTP_METHODS.filter((m) => !methods.includes(m))) {
          const response = await context.fetch(url, { method, data: method === 'GET' ? undefined : '{}' });
          // A visitor is stopped by proxy.ts before the handler, on every protected path it sees;
          // /api/import is outside its matcher (proxy.ts), so there Next.js answers 405 first.
          const expected = role === 'anonymous' && !open && !PROXY_SKIPS.includes(route) ? 401 : 405;
          expect(response.status(), `${method} ${route} as ${role}`).toBe(expected);
        }
      }
      await context.dispose();
    });
  }

  test('public route handlers answer without a session', async ({ baseURL }) => {
    const context = await signedInContext(baseURL!, 'anonymous');
    for (const r of PUBLIC_ROUTES) expect((await context.get(r.sample)).status(), r.sample).toBe(200);
    await context.dispose();
  });

  test('every server action in the build is in the permission map', () => {
    const names = buildActions().map((a) => a.exportedName);
    const known = new Set<string>([...Object.keys(ACTIONS), ...PUBLIC_ACTIONS]);
    expect(
      names.filter((n) => !known.has(n)),
      'actions missing from lib/auth/permissions.ts ACTIONS',
    ).toEqual([]);
    expect(
      [...known].filter((n) => !names.includes(n)),
      'map entries with no action in the build',
    ).toEqual([]);
  });

  for (const role of [...ROLES, 'anonymous'] as const) {
    test(`server actions as ${role}`, async ({ baseURL }) => {
      let context: APIRequestContext | null = null;
      for (const action of buildActions()) {
        if ((PUBLIC_ACTIONS as readonly string[]).includes(action.exportedName)) continue;
        // One session for the role's checks, renewed when a check ended it (sign-out): each
        // sign-in is a deliberately slow password hash, and one per action ran past the test's
        // time on a busy machine.
        if (context && role !== 'anonymous' && (await context.get('/api/me')).status() !== 200) {
          await context.dispose();
          context = null;
        }
        context ??= await signedInContext(baseURL!, role);
        const response = await context.post(action.route, {
          headers: { 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Origin: baseURL!, Accept: 'text/x-component' },
          // An empty input: allowed roles get a validation error (or, for sign-out, a redirect);
          // nothing is changed either way.
          data: JSON.stringify([{}]),
        });
        const body = await response.text();
        const label = `${action.exportedName} as ${role}`;
        if (role === 'anonymous') {
          const redirected = [302, 303, 307].includes(response.status()) && (response.headers().location ?? '').includes('/login');
          expect(redirected || body.includes('"code":"unauthorized"'), label).toBe(true);
        } else if (can(role, ACTIONS[action.exportedName as keyof typeof ACTIONS])) {
          // Past the role check the empty input fails validation; sign-out redirects instead.
          const redirected = Boolean(response.headers()['x-action-redirect']);
          expect(redirected || body.includes('"code":"bad_request"'), `${label}: ${body.slice(0, 300)}`).toBe(true);
        } else {
          expect(body, label).toContain('"code":"forbidden"');
        }
      }
      await context?.dispose();
    });
  }
});
