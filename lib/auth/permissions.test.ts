import { describe, expect, it } from 'vitest';
import { ACTIONS, can, isPublicPath, NAV, PAGES, PERMISSIONS, ROLES } from '@/lib/auth/permissions';

describe('permission map', () => {
  it('gives each role navigation only to pages that role may open, and every page some role', () => {
    for (const role of ROLES) {
      for (const item of NAV[role]) {
        const page = PAGES.find((p) => p.path === item.href);
        expect(page, `${role} nav ${item.href} is a known page`).toBeDefined();
        expect(can(role, page!.permission), `${role} may open ${item.href}`).toBe(true);
      }
    }
    for (const page of PAGES) expect(ROLES.some((r) => can(r, page.permission)), page.path).toBe(true);
  });

  it('keeps user management and settings to admins, and case work to RMs', () => {
    expect(ROLES.filter((r) => can(r, 'users:manage'))).toEqual(['admin']);
    expect(ROLES.filter((r) => can(r, 'settings:read'))).toEqual(['admin']);
    expect(ROLES.filter((r) => can(r, 'cases:read-own'))).toEqual(['rm']);
    expect(ROLES.filter((r) => can(r, 'ratings:read-own'))).toEqual(['evaluator']);
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
});
