// The access matrix, generated from lib/auth/permissions.ts: every role and an anonymous
// visitor against every protected page and every server action in the build.
import fs from 'node:fs';
import path from 'node:path';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { ACTIONS, API_ROUTES, can, PAGES, PUBLIC_ACTIONS, ROLES, type Role } from '../lib/auth/permissions';
import { DEMO_PASSWORD, DEMO_USERS } from './fixtures';

type ManifestEntry = { exportedName?: string; filename?: string; workers: Record<string, unknown> };

/** Server actions of the production build, from Next's own manifest. */
function buildActions() {
  const file = path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { node: Record<string, ManifestEntry> };
  return Object.entries(manifest.node).map(([id, entry]) => ({
    id,
    name: entry.exportedName ?? '',
    // A route the action is bundled with, e.g. app/(signed-in)/(admin)/admin/users/page → /admin/users
    route:
      Object.keys(entry.workers)[0]
        .replace(/^app/, '')
        .replace(/\/\([^)]+\)/g, '')
        .replace(/\/page$/, '') || '/',
  }));
}

async function signedInContext(baseURL: string, role: Role | 'anonymous'): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL, maxRedirects: 0 });
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
        else if (can(role, api.permission)) expect(response.status(), label).toBe(200);
        else expect(response.status(), label).toBe(403);
      }
      await context.dispose();
    });
  }

  test('every server action in the build is in the permission map', () => {
    const names = buildActions().map((a) => a.name);
    const known = new Set<string>([...Object.keys(ACTIONS), ...PUBLIC_ACTIONS]);
    expect(names.filter((n) => !known.has(n)), 'actions missing from lib/auth/permissions.ts ACTIONS').toEqual([]);
    expect([...known].filter((n) => !names.includes(n)), 'map entries with no action in the build').toEqual([]);
  });

  for (const role of [...ROLES, 'anonymous'] as const) {
    test(`server actions as ${role}`, async ({ baseURL }) => {
      for (const action of buildActions()) {
        if ((PUBLIC_ACTIONS as readonly string[]).includes(action.name)) continue;
        // A fresh session per call: sign-out must not end the session of the next check.
        const context = await signedInContext(baseURL!, role);
        const response = await context.post(action.route, {
          headers: { 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Origin: baseURL!, Accept: 'text/x-component' },
          // An empty input: allowed roles get a validation error (or, for sign-out, a redirect);
          // nothing is changed either way.
          data: JSON.stringify([{}]),
        });
        const body = await response.text();
        const label = `${action.name} as ${role}`;
        if (role === 'anonymous') {
          const redirected = [302, 303, 307].includes(response.status()) && (response.headers().location ?? '').includes('/login');
          expect(redirected || body.includes('"code":"unauthorized"'), label).toBe(true);
        } else if (can(role, ACTIONS[action.name as keyof typeof ACTIONS])) {
          // Past the role check the empty input fails validation; sign-out redirects instead.
          const redirected = Boolean(response.headers()['x-action-redirect']);
          expect(redirected || body.includes('"code":"bad_request"'), `${label}: ${body.slice(0, 300)}`).toBe(true);
        } else {
          expect(body, label).toContain('"code":"forbidden"');
        }
        await context.dispose();
      }
    });
  }
});
