// The action wrapper shows a phrase in the reader's language by its key and values, never by
// matching English text; the error itself (logs, the audit log) keeps the English table's text.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { phraseMessage, say, type Dictionary, type Locale, type Messages } from '@/lib/i18n';
import { adminMessages } from '@/lib/i18n/messages/admin';
import { runMessages } from '@/lib/i18n/messages/run';

const state: { locale: Locale } = { locale: 'ko' };
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => null }));
vi.mock('@/lib/i18n/server', () => ({ getLocale: async () => state.locale }));
vi.mock('@/lib/ops/log', () => ({ log: { error: () => {}, warn: () => {}, info: () => {} } }));

const { action } = await import('@/lib/auth/action');

const limit = say(runMessages, 'errRunLimit', { n: 1 });
const refuses = action({ permission: 'public', input: z.object({}) }, async () => {
  throw new AppError('rate_limited', limit);
});
const checks = action(
  {
    permission: 'public',
    messages: [adminMessages as Messages<Dictionary>],
    input: z.object({ password: z.string().min(10, phraseMessage('errPasswordMin', { n: 10 })), email: z.email('errEmail') }),
  },
  async () => 'never',
);
const breaks = action({ permission: 'public', input: z.object({}) }, async () => {
  throw new Error('boom');
});

describe("an action's refusal in the reader's language", () => {
  beforeEach(() => {
    state.locale = 'ko';
  });

  it('a phrase thrown by the handler, in Korean, with its count; the error keeps its English', async () => {
    expect(await refuses({})).toEqual({ ok: false, code: 'rate_limited', message: expect.stringContaining('이미 대기 중이거나 진행 중인 분석이 1건으로') });
    expect(new AppError('rate_limited', limit).message).toBe(
      'You already have 1 analysis queued or running, the most one person may run at once. Wait for one to finish or cancel one, then start again.',
    );
    state.locale = 'en';
    expect(await refuses({})).toMatchObject({ message: expect.stringMatching(/^You already have 1 analysis queued/) });
  });

  it("an input check's phrase with values through the action's tables; a bare key is left to the form", async () => {
    expect(await checks({ password: 'short', email: 'not-an-email' })).toEqual({
      ok: false,
      code: 'bad_request',
      message: '표시된 항목을 확인하세요.',
      fieldErrors: { password: ['10자 이상 입력하세요.'], email: ['errEmail'] },
    });
  });

  it('an unexpected error says so in Korean, with its reference', async () => {
    const result = await breaks({});
    expect(result).toMatchObject({ ok: false, code: 'internal' });
    expect(!result.ok && result.message).toMatch(/^시스템 내부 오류가 발생했습니다\. 다시 시도하세요\. \(참조 번호 [0-9a-f]{8}\)$/);
  });
});
