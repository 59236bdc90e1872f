import { describe, expect, it } from 'vitest';
import { defaultMessage } from '@/lib/errors';
import type { Dictionary, Messages } from '@/lib/i18n';
import { localizer } from '@/lib/i18n/localize';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { importMessages } from '@/lib/i18n/messages/import';
import { casesMessages } from '@/lib/i18n/messages/cases';

const tables = [casesMessages, importMessages, errorMessages] as Messages<Dictionary>[];

describe('localizer', () => {
  const ko = localizer(tables, 'ko');
  const en = localizer(tables, 'en');

  it('translates a message key', () => {
    expect(ko('errCompany')).toBe('지식 풀에서 차주를 선택하세요.');
    expect(en('errCompany')).toBe('Choose a borrower from the pool.');
  });

  it('translates an error code’s default message and the unexpected-error reference', () => {
    expect(ko(defaultMessage('forbidden'))).toBe('현재 역할로는 이 작업을 할 수 없습니다.');
    expect(ko(`${defaultMessage('internal')} (reference 1a2b3c4d)`)).toBe('시스템 내부 오류가 발생했습니다. 다시 시도하세요. (참조 번호 1a2b3c4d)');
  });

  it('translates an English template with its values filled, keeping the values', () => {
    expect(ko('Unknown company "acme": it is neither in this import\'s companies.json nor in the knowledge pool.')).toBe(
      '알 수 없는 기업 "acme": 이번 가져오기의 companies.json에도, 지식 풀에도 없습니다.',
    );
    expect(ko('2099-01-01 is in the future; an item can only be imported once it is public.')).toContain('2099-01-01');
  });

  it('leaves English as it is in English, and unknown text as it came', () => {
    expect(en('is missing: a short title')).toBe('is missing: a short title');
    expect(ko('Something only the server knows.')).toBe('Something only the server knows.');
  });
});
