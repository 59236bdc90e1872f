import { describe, expect, it } from 'vitest';
import { allowedMethods, matchesPattern, pagesOf, routeHandlersOf, serverActionsOf, withoutGroups } from '@/lib/auth/endpoints';

// Shaped like the files `next build` writes to .next/server (Next 16).
const APP_PATHS = {
  '/(auth)/login/page': 'app/(auth)/login/page.js',
  '/(signed-in)/(admin)/admin/users/page': 'app/(signed-in)/(admin)/admin/users/page.js',
  '/(signed-in)/page': 'app/(signed-in)/page.js',
  '/_not-found/page': 'app/_not-found/page.js',
  '/api/auth/[...nextauth]/route': 'app/api/auth/[...nextauth]/route.js',
  '/api/runs/[id]/events/route': 'app/api/runs/[id]/events/route.js',
  '/api/health/route': 'app/api/health/route.js',
  '/(ops)/api/admin/queue/route': 'app/(ops)/api/admin/queue/route.js',
};

const SERVER_REFERENCES = {
  node: {
    '7f01': {
      exportedName: 'createUser',
      workers: { 'app/(signed-in)/(admin)/admin/users/page': { moduleId: 1, async: false } },
    },
    '7f02': {
      exportedName: 'signOutAction',
      workers: { 'app/(signed-in)/page': { moduleId: 2, async: false }, 'app/(signed-in)/logout/page': { moduleId: 3, async: false } },
    },
    '7f03': { workers: { 'app/(auth)/login/page': { moduleId: 4, async: false } } },
  },
};

describe('endpoints of a build', () => {
  it('lists every route handler by its URL pattern, without route groups, and no page', () => {
    expect(routeHandlersOf(APP_PATHS)).toEqual(['/api/admin/queue', '/api/auth/[...nextauth]', '/api/health', '/api/runs/[id]/events']);
    expect(routeHandlersOf({})).toEqual([]);
  });

  it("lists every page by its URL pattern, without route groups, route handlers or Next's own pages", () => {
    expect(pagesOf(APP_PATHS)).toEqual(['/', '/admin/users', '/login']);
    expect(pagesOf({})).toEqual([]);
  });

  it('lists every server action with its name and a page to post it to', () => {
    expect(serverActionsOf(SERVER_REFERENCES)).toEqual([
      { id: '7f01', exportedName: 'createUser', route: '/admin/users' },
      { id: '7f02', exportedName: 'signOutAction', route: '/' },
      // An action without a name still counts: the matrix then fails on the empty name.
      { id: '7f03', exportedName: '', route: '/login' },
    ]);
  });

  it('refuses an action bundled with no page at all', () => {
    expect(() => serverActionsOf({ node: { '7f09': { exportedName: 'lost', workers: {} } } })).toThrow('lost');
  });

  it('drops route groups only', () => {
    expect(withoutGroups('/(signed-in)/(workspace)/cases/[id]')).toBe('/cases/[id]');
    expect(withoutGroups('/(signed-in)')).toBe('/');
    expect(withoutGroups('/api/runs/[id]')).toBe('/api/runs/[id]');
  });

  it('matches a URL to a path pattern segment by segment', () => {
    expect(matchesPattern('/api/runs/[id]/export', '/api/runs/abc/export?format=json')).toBe(true);
    expect(matchesPattern('/api/runs/[id]/export', '/api/runs/abc/def/export')).toBe(false);
    expect(matchesPattern('/api/runs/[id]/export', '/api/runs//export')).toBe(false);
    expect(matchesPattern('/api/auth/[...nextauth]', '/api/auth/csrf')).toBe(true);
    expect(matchesPattern('/api/auth/[...nextauth]', '/api/auth/callback/credentials')).toBe(true);
    expect(matchesPattern('/api/auth/[...nextauth]', '/api/auth')).toBe(false);
    expect(matchesPattern('/docs/[[...slug]]', '/docs')).toBe(true);
    expect(matchesPattern('/api/health', '/api/healthz')).toBe(false);
    expect(matchesPattern('/', '/')).toBe(true);
  });

  it('reads the methods a route exports from its Allow header', () => {
    expect(allowedMethods('GET, HEAD, OPTIONS, POST')).toEqual(['GET', 'POST']);
    expect(allowedMethods('OPTIONS')).toEqual([]);
    expect(allowedMethods(undefined)).toEqual([]);
  });
});
