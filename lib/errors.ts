// One error vocabulary for actions, route handlers and pages. A code maps to an HTTP status
// and to a message a user can act on; internal details are logged, never shown.
import { isSaid, say, sayText, type Phrase, type Said } from '@/lib/i18n';
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

/**
 * A field's problem: a key of the form's own table or text to show as it is, a phrase of the
 * action's tables (ActionConfig `messages`), or a phrase with its table.
 */
export type FieldError = string | Phrase | Said;
export type FieldErrors = Record<string, FieldError[]>;

/**
 * An error a user may read. Say it as a phrase (`say(table, key, values)`): the action wrapper
 * shows it in the reader's language (lib/auth/action.ts), while `message`, which logs, the
 * audit log and the JSON API use, is its English. A plain string is shown as it is.
 */
export class AppError extends Error {
  /** Not enumerable: a log line that spreads the error does not print the table. */
  declare readonly said?: Said;
  constructor(
    readonly code: ErrorCode,
    message: string | Said = say(errorMessages, code),
    readonly fieldErrors?: FieldErrors,
  ) {
    super(isSaid(message) ? sayText(message) : message);
    this.name = 'AppError';
    if (isSaid(message)) Object.defineProperty(this, 'said', { value: message, enumerable: false });
  }

  get status() {
    return ERROR_STATUS[this.code];
  }
}

export function defaultMessage(code: ErrorCode) {
  return errorMessages.en[code];
}
