import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchesPattern } from '@/lib/auth/endpoints';
import { ACTIONS, API_ROUTES, can, isPublicPath, NAV, PAGES, PERMISSIONS, PUBLIC_ROUTES } from '@/lib/auth/permissions';
import { ROLES } from '@/lib/domain/vocabulary';

/** Route handler files under app/, as URL patterns (route groups dropped). */
function routeFiles(): string[] {
  const root = path.join(process.cwd(), 'app');
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(^|[/\\])route\.(ts|js)$/.test(f))
    .map(
      (f) =>
        `/${f
          .split(path.sep)
          .slice(0, -1)
          .filter((s) => !/^\(.+\)$/.test(s))
          .join('/')}`,
    )
    .sort();
}

describe('permission map', () => {
  it('gives each role navigation only to pages that role may open, and every page some role', () => {
    for (const role of ROLES) {
      for (const item of NAV[role]) {
        const page = PAGES.find((p) => p.path === item.href);
        expect(page, `${role} nav ${item.href} is a known page`).toBeDefined();
        expect(can(role, page!.permission), `${role} may open ${item.href}`).toBe(true);
      }
    }
    for (const page of PAGES)
      expect(
        ROLES.some((r) => can(r, page.permission)),
        page.path,
      ).toBe(true);
  });

  it('keeps user management and settings to admins, and case work to RMs', () => {
    expect(ROLES.filter((r) => can(r, 'users:manage'))).toEqual(['admin']);
    expect(ROLES.filter((r) => can(r, 'settings:read'))).toEqual(['admin']);
    expect(ROLES.filter((r) => can(r, 'cases:read-own'))).toEqual(['rm']);
    expect(ROLES.filter((r) => can(r, 'ratings:read-own'))).toEqual(['evaluator']);
  });

  it("lets the committee open a borrower's page and documents, sampled on the submitted case's borrower, but not the Companies list", () => {
    // The access matrix (e2e/access.spec.ts) expects 200 from each sample for every role allowed:
    // the committee reads Samsung Electronics as the borrower of the demo's submitted case.
    expect(ROLES.filter((r) => can(r, 'companies:read'))).toEqual(['rm', 'admin']);
    const borrower = PAGES.filter((p) => p.path.startsWith('/companies/[id]'));
    expect(borrower.map((p) => [p.permission, 'sample' in p ? p.sample : null])).toEqual([
      ['borrowers:read', '/companies/samsung-electronics'],
      ['borrowers:read', '/companies/samsung-electronics/documents/samsung-electronics--2022h1-ii6-major-contracts-and-rnd'],
    ]);
    expect(ROLES.filter((r) => can(r, 'borrowers:read'))).toEqual(['rm', 'committee', 'admin']);
  });

  it('names only existing permissions for actions', () => {
    for (const permission of Object.values(ACTIONS)) expect(Object.keys(PERMISSIONS)).toContain(permission);
  });

  it('leaves only sign-in, health and the Auth.js endpoints public', () => {
    expect(isPublicPath('/login')).toBe(true);
    expect(isPublicPath('/api/health')).toBe(true);
    expect(isPublicPath('/api/auth/callback/credentials')).toBe(true);
    expect(isPublicPath('/')).toBe(false);
    expect(isPublicPath('/loginx')).toBe(false);
    expect(isPublicPath('/api/healthz')).toBe(false);
    expect(isPublicPath('/admin/users')).toBe(false);
  });

  it('names every route handler in app/ once, as protected or public, with samples that fill their patterns', () => {
    const declared = [...new Set(API_ROUTES.map((r) => r.path))];
    expect([...declared, ...PUBLIC_ROUTES.map((r) => r.path)].sort()).toEqual(routeFiles());
    expect(declared.filter((p) => PUBLIC_ROUTES.some((r) => (r.path as string) === p))).toEqual([]);
    for (const r of API_ROUTES) {
      expect(new Set(API_ROUTES.filter((x) => x.path === r.path).map((x) => x.method)).size, `${r.path}: one entry per method`).toBe(
        API_ROUTES.filter((x) => x.path === r.path).length,
      );
      if ('sample' in r) expect(matchesPattern(r.path, r.sample), `${r.sample} fills ${r.path}`).toBe(true);
      else expect(r.path, 'a path without a sample has no dynamic segment').not.toContain('[');
      expect(Object.keys(PERMISSIONS)).toContain(r.permission);
    }
    for (const r of PUBLIC_ROUTES) {
      expect(matchesPattern(r.path, r.sample), `${r.sample} fills ${r.path}`).toBe(true);
      // Public in the map means public in proxy.ts too, or the matrix would be testing a wish.
      expect(isPublicPath(r.sample.split('?')[0]), r.sample).toBe(true);
    }
  });
});
