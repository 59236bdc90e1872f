import { defineMessages } from '@/lib/i18n';

// The default message of each error code (lib/errors.ts reads the English table), the
// wrapper's "(reference …)" suffix on unexpected errors, and its field errors for typed text the
// database cannot store (lib/domain/typed-text.ts).
export const errorMessages = defineMessages({
  en: {
    unauthorized: 'Please sign in to continue.',
    forbidden: 'Your role does not allow this.',
    not_found: 'Not found.',
    bad_request: 'Please check the highlighted fields.',
    conflict: 'This conflicts with existing data.',
    rate_limited: 'Too many requests. Please wait a moment and try again.',
    internal: 'Something went wrong on our side. Please try again.',
    unavailable: 'The service is temporarily unavailable.',
    internalWithReference: 'Something went wrong on our side. Please try again. (reference {ref})',
    typedNul: 'Remove the NUL character (U+0000) at character {at}: it cannot be stored.',
    typedBrokenChar: 'Remove the broken character (half of a surrogate pair, U+{code}) at character {at}: it cannot be stored.',
  },
  ko: {
    unauthorized: '계속하려면 로그인하세요.',
    forbidden: '현재 역할로는 이 작업을 할 수 없습니다.',
    not_found: '찾을 수 없습니다.',
    bad_request: '표시된 항목을 확인하세요.',
    conflict: '기존 데이터와 충돌합니다.',
    rate_limited: '요청이 너무 많습니다. 잠시 후 다시 시도하세요.',
    internal: '시스템 내부 오류가 발생했습니다. 다시 시도하세요.',
    unavailable: '서비스를 일시적으로 사용할 수 없습니다.',
    internalWithReference: '시스템 내부 오류가 발생했습니다. 다시 시도하세요. (참조 번호 {ref})',
    typedNul: '{at}번째 글자의 NUL 문자(U+0000)를 지우세요. 저장할 수 없는 문자입니다.',
    typedBrokenChar: '{at}번째 글자의 깨진 문자(짝이 없는 서로게이트, U+{code})를 지우세요. 저장할 수 없는 문자입니다.',
  },
});
