// One error vocabulary for actions, route handlers and pages. A code maps to an HTTP status
// and to a message a user can act on; internal details are logged, never shown.
import { errorMessages } from '@/lib/i18n/messages/errors';

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  bad_request: 400,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

// English here; the screen shows the reader's language by matching these texts (lib/i18n/localize.ts).
const DEFAULT_MESSAGES: Record<ErrorCode, string> = errorMessages.en;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status() {
    return ERROR_STATUS[this.code];
  }
}

export function defaultMessage(code: ErrorCode) {
  return DEFAULT_MESSAGES[code];
}
