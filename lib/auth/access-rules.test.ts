import { describe, expect, it } from 'vitest';
import { canAccessCase, canAccessRun, canReadCompany } from '@/lib/auth/access-rules';

const rm = { id: 'rm-1', role: 'rm' as const };
const otherRm = { id: 'rm-2', role: 'rm' as const };
const committee = { id: 'c-1', role: 'committee' as const };
const evaluator = { id: 'e-1', role: 'evaluator' as const };
const admin = { id: 'a-1', role: 'admin' as const };

describe('case and run access', () => {
  it('lets the owning RM read and write, and no other RM', () => {
    const kase = { ownerId: 'rm-1', status: 'draft' as const };
    expect(canAccessCase(rm, kase, 'write')).toBe(true);
    expect(canAccessCase(otherRm, kase, 'read')).toBe(false);
  });
  it('shows the committee submitted and decided cases read-only, never drafts', () => {
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'draft' }, 'read')).toBe(false);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'analyzing' }, 'read')).toBe(false);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'submitted' }, 'read')).toBe(true);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'decided' }, 'read')).toBe(true);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'returned' }, 'read')).toBe(true);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'returned' }, 'write')).toBe(false);
    expect(canAccessCase(committee, { ownerId: 'rm-1', status: 'submitted' }, 'write')).toBe(false);
  });
  it('keeps evaluators and administrators out of case runs', () => {
    const kase = { ownerId: 'rm-1', status: 'submitted' as const };
    expect(canAccessCase(evaluator, kase, 'read')).toBe(false);
    expect(canAccessCase(admin, kase, 'read')).toBe(false);
  });
  it('gives a run without a case to the RM who started it', () => {
    expect(canAccessRun(rm, { createdById: 'rm-1' }, null, 'write')).toBe(true);
    expect(canAccessRun(otherRm, { createdById: 'rm-1' }, null, 'read')).toBe(false);
    expect(canAccessRun(committee, { createdById: null }, null, 'read')).toBe(false);
  });
  it('opens a company to the committee only as the borrower of a case it may read', () => {
    expect(canReadCompany(committee, ['submitted'])).toBe(true);
    expect(canReadCompany(committee, ['draft', 'decided'])).toBe(true);
    expect(canReadCompany(committee, ['returned'])).toBe(true);
    expect(canReadCompany(committee, ['draft', 'analyzing'])).toBe(false);
    expect(canReadCompany(committee, [])).toBe(false);
    expect(canReadCompany(rm, [])).toBe(true);
    expect(canReadCompany(admin, [])).toBe(true);
    expect(canReadCompany(evaluator, ['submitted'])).toBe(false);
  });
});
