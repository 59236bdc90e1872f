// Text a person types reaches the database through one rule, applied by the action wrapper
// (lib/auth/action.ts, lib/domain/typed-text.ts): a NUL or half of a surrogate pair is a field
// error under that field, in the reader's language, and nothing is written; bidirectional
// controls are removed. Tested through the real server actions of the forms that answered
// {"code":"internal"} before, on a throwaway database; and every action exported by an
// app/**/actions.ts is called with a NUL, so a new form cannot miss the rule.
import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@/lib/auth/session';
import type { DatabaseHandle } from '@/lib/db/client';
import { getReport } from '@/lib/db/queries/runs';
import { insertCase } from '@/lib/db/queries/cases';
import { insertUser } from '@/lib/db/queries/users';
import { auditLog, cases, comments, studies, users } from '@/lib/db/schema';
import { testBackends } from '@/lib/db/test-db';
import { cleanTypedInput } from '@/lib/domain/typed-text';
import type { Role } from '@/lib/domain/vocabulary';
import type { Locale } from '@/lib/i18n';
import { offlineRun, seededDatabase } from '@/lib/eval/test-runs';

const state: { user: SessionUser | null; handle: DatabaseHandle | null; locale: Locale; anyPermission: boolean } = {
  user: null,
  handle: null,
  locale: 'en',
  anyPermission: false,
};
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => state.user }));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));
vi.mock('@/lib/i18n/server', async (importOriginal) => ({ ...(await importOriginal<object>()), getLocale: async () => state.locale }));
vi.mock('next/cache', () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
// Auth.js does not load outside Next; the sign-in action must refuse before it would call it.
vi.mock('next-auth', () => ({ AuthError: class AuthError extends Error {} }));
vi.mock('@/lib/auth/auth', () => ({
  auth: async () => null,
  signIn: async () => {
    throw new Error('signIn reached');
  },
  signOut: async () => {
    throw new Error('signOut reached');
  },
}));
vi.mock('@/lib/auth/permissions', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/auth/permissions')>();
  return { ...real, can: (...args: Parameters<typeof real.can>) => state.anyPermission || real.can(...args) };
});

const { createCase } = await import('@/app/(signed-in)/(workspace)/cases/new/actions');
const { addComment } = await import('@/app/(signed-in)/(committee)/review/actions');
const { createUser } = await import('@/app/(signed-in)/(admin)/admin/users/actions');
const { createStudy } = await import('@/app/(signed-in)/(admin)/admin/studies/actions');
const { verifyPassword } = await import('@/lib/auth/password');

const NUL_AT = (at: number) => `Remove the NUL character (U+0000) at character ${at}: it cannot be stored.`;
const BROKEN_AT = (code: string, at: number) => `Remove the broken character (half of a surrogate pair, U+${code}) at character ${at}: it cannot be stored.`;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

function formOf(values: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) for (const v of [value].flat()) form.append(key, v);
  return form;
}

/** A redirect is how a created case or study answers; anything else is returned as it came. */
async function settle<T>(p: Promise<T>): Promise<T | 'redirected'> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof Error && /NEXT_REDIRECT/.test(err.message + String((err as { digest?: string }).digest))) return 'redirected';
    throw err;
  }
}

describe('the typed-text rule', () => {
  it('finds a NUL or half of a surrogate pair anywhere in the input, under its top-level field, and removes bidirectional controls', () => {
    const { value, problems } = cleanTypedInput(
      { title: 'A\u202Eb\u2066c', tags: ['ok', 'x\u0000'], nested: { deep: ['\ud83d\ude00 fine', 'half \udc00'] }, n: 3, ok: true, none: null },
      [],
    );
    expect(value).toEqual({ title: 'Abc', tags: ['ok', 'x\u0000'], nested: { deep: ['\ud83d\ude00 fine', 'half \udc00'] }, n: 3, ok: true, none: null });
    expect(problems).toEqual({ tags: [{ kind: 'nul', at: 2 }], nested: [{ kind: 'broken', code: 'DC00', at: 6 }] });
    // A key of an object holds text too (a record of answers).
    expect(cleanTypedInput({ answers: { 'k\u0000': 1 } }, []).problems).toEqual({ answers: [{ kind: 'nul', at: 2 }] });
    // A field kept verbatim (a password) keeps its controls and is not checked: it is never stored as text.
    expect(cleanTypedInput({ password: 'pa\u202Ess\u0000', name: 'n\u202E' }, ['password'])).toEqual({
      value: { password: 'pa\u202Ess\u0000', name: 'n' },
      problems: null,
    });
    // Not an object: left to the schema.
    expect(cleanTypedInput('x\u0000', [])).toEqual({ value: 'x\u0000', problems: null });
  });
});

describe.each(testBackends())('typed text through the real server actions (%s)', (backend) => {
  const people = {} as Record<'rm' | 'committee' | 'admin' | 'evaluator', SessionUser>;
  let submittedCaseId = '';
  let reportId = '';

  beforeAll(async () => {
    state.handle = await seededDatabase(backend);
    const db = state.handle.db;
    for (const role of ['rm', 'committee', 'admin', 'evaluator'] as const satisfies Role[]) {
      const row = await insertUser({ db, email: `${role}@typed.test`, name: `Typed ${role}`, role, passwordHash: null });
      people[role] = { id: row.id, email: row.email, name: row.name, role, demo: false };
    }
    const submitted = await insertCase({
      db,
      values: {
        companyId: 'tesla',
        ownerId: people.rm.id,
        title: 'Submitted',
        loanAmount: '100',
        loanCurrency: 'USD',
        loanPurpose: 'Capex',
        loanTenorMonths: 12,
        asOfDate: '2025-06-30',
        notes: null,
      },
    });
    submittedCaseId = submitted.id;
    await db.update(cases).set({ status: 'submitted' }).where(eq(cases.id, submittedCaseId));
    const run = await offlineRun(state.handle, { protocol: 'nas', companyId: 'tesla', params: { language: 'en', asOf: '2025-06-30' } });
    reportId = (await getReport({ db, runId: run.id }))!.id;
  }, 120_000);
  afterAll(async () => {
    await state.handle?.close();
    state.handle = null;
  });
  beforeEach(() => {
    state.locale = 'en';
    state.anyPermission = false;
  });

  const db = () => state.handle!.db;
  const rows = async () => ({
    cases: (await db().select({ n: count() }).from(cases))[0].n,
    comments: (await db().select({ n: count() }).from(comments))[0].n,
    users: (await db().select({ n: count() }).from(users))[0].n,
    studies: (await db().select({ n: count() }).from(studies))[0].n,
    audit: (await db().select({ n: count() }).from(auditLog))[0].n,
  });
  const caseFields = (over: Record<string, string> = {}) => ({
    company_id: 'tesla',
    title: 'Working capital line',
    loan_amount: '1,000,000',
    loan_currency: 'USD' as const,
    loan_purpose: 'Inventory',
    loan_tenor_months: '12',
    as_of_date: '2025-06-30',
    notes: 'Seasonal.',
    ...over,
  });
  const caseForm = (over: Record<string, string> = {}) => formOf(caseFields(over));
  const refused = (fieldErrors: Record<string, string[]>) => ({ ok: false, code: 'bad_request', message: 'Please check the highlighted fields.', fieldErrors });

  it('a NUL in a case title, purpose or notes, or half a surrogate pair in its title: a field error under that field, nothing written', async () => {
    state.user = people.rm;
    const before = await rows();
    expect(await createCase(caseForm({ title: 'Acme\u0000 loan' }))).toEqual(refused({ title: [NUL_AT(5)] }));
    expect(await createCase(caseForm({ loan_purpose: '\u0000' }))).toEqual(refused({ loan_purpose: [NUL_AT(1)] }));
    expect(await createCase(caseForm({ notes: 'Seasonal\u0000.' }))).toEqual(refused({ notes: [NUL_AT(9)] }));
    // Half a surrogate pair comes as JSON (a form's text is well-formed UTF-8 by the time it arrives).
    expect(await createCase(caseFields({ title: 'Acme \ud800 loan' }) as never)).toEqual(refused({ title: [BROKEN_AT('D800', 6)] }));
    // The form's other problems are named with it.
    expect(await createCase(caseForm({ title: 'Acme\u0000', loan_purpose: '' }))).toEqual(refused({ title: [NUL_AT(5)], loan_purpose: ['errPurpose'] }));
    expect(await rows()).toEqual(before);
  });

  it('a NUL in a comment, a user name or a study name: a field error under that field, nothing written', async () => {
    const before = await rows();
    state.user = people.committee;
    expect(await addComment(formOf({ case_id: submittedCaseId, body: 'Why\u0000?' }))).toEqual(refused({ body: [NUL_AT(4)] }));
    state.user = people.admin;
    expect(await createUser(formOf({ email: 'nul@typed.test', name: 'Nul\u0000 Name', role: 'rm', password: 'long-enough-password' }))).toEqual(
      refused({ name: [NUL_AT(4)] }),
    );
    expect(await createStudy(formOf({ name: 'Study\u0000', reportIds: [reportId], evaluatorIds: [people.evaluator.id], createAnyway: 'on' }))).toEqual(
      refused({ name: [NUL_AT(6)] }),
    );
    expect(await rows()).toEqual(before);
  });

  it("says it in the reader's language", async () => {
    state.user = people.rm;
    state.locale = 'ko';
    expect(await createCase(caseForm({ title: 'Acme\u0000' }))).toEqual({
      ok: false,
      code: 'bad_request',
      message: '표시된 항목을 확인하세요.',
      fieldErrors: { title: ['5번째 글자의 NUL 문자(U+0000)를 지우세요. 저장할 수 없는 문자입니다.'] },
    });
  });

  it('removes bidirectional controls before anything is checked or stored; a password is kept as typed', async () => {
    state.user = people.rm;
    expect(await settle(createCase(caseForm({ title: 'Invoice\u202Efdp.exe', loan_purpose: 'Capex \u2066x\u2069', notes: '\u202Dnote\u202C' })))).toBe(
      'redirected',
    );
    // A title of nothing but controls is an empty title.
    expect(await createCase(caseForm({ title: '\u202E\u202E' }))).toEqual(refused({ title: ['errTitle'] }));
    state.user = people.committee;
    expect(await addComment(formOf({ case_id: submittedCaseId, body: 'Amount \u202E0001\u202C ok' }))).toMatchObject({ ok: true });
    state.user = people.admin;
    const created = await createUser(formOf({ email: 'bidi@typed.test', name: 'Bidi\u2067 Name', role: 'rm', password: 'secret\u202Epassword' }));
    expect(created).toMatchObject({ ok: true });
    expect(
      await settle(createStudy(formOf({ name: 'Study \u202Eeman', reportIds: [reportId], evaluatorIds: [people.evaluator.id], createAnyway: 'on' }))),
    ).toBe('redirected');

    const stored = JSON.stringify([
      await db().select().from(cases),
      await db().select().from(comments),
      await db().select({ name: users.name }).from(users),
      await db().select().from(studies),
      await db().select({ detail: auditLog.detail }).from(auditLog),
    ]);
    expect(stored).not.toMatch(BIDI);
    expect(stored).toContain('Invoicefdp.exe');
    expect(stored).toContain('Amount 0001 ok');
    expect(stored).toContain('Bidi Name');
    expect(stored).toContain('Study eman');
    const [user] = await db().select().from(users).where(eq(users.email, 'bidi@typed.test'));
    expect(await verifyPassword('secret\u202Epassword', user.passwordHash!)).toBe(true);
  });

  it('every action of app/**/actions.ts refuses a NUL in any field by name, before its handler runs', async () => {
    state.user = people.admin;
    state.anyPermission = true;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name === 'actions.ts') files.push(full);
      }
    };
    walk(path.join(process.cwd(), 'app'));
    const before = await rows();
    const checked: string[] = [];
    for (const file of files) {
      const actions = (await import(file)) as Record<string, unknown>;
      for (const [name, fn] of Object.entries(actions)) {
        if (typeof fn !== 'function') continue;
        const call = fn as (input: unknown) => Promise<unknown>;
        expect(await settle(call(formOf({ probe: 'x\u0000' }))), `${path.relative(process.cwd(), file)} ${name}`).toMatchObject(
          refused({ probe: [NUL_AT(2)] }),
        );
        expect(await settle(call({ probe: ['ok', { deep: 'y\ud800' }] })), `${name} (object)`).toMatchObject(refused({ probe: [BROKEN_AT('D800', 2)] }));
        checked.push(name);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(['createCase', 'addComment', 'recordDecision', 'createUser', 'createStudy', 'addEvidence', 'submitCase', 'signInAction']),
    );
    expect(checked.length).toBeGreaterThanOrEqual(30);
    expect(await rows()).toEqual(before);
  });
});
