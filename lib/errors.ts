// One error vocabulary for actions, route handlers and pages. A code maps to an HTTP status
// and to a message a user can act on; internal details are logged, never shown.
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

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  unauthorized: 'Please sign in to continue.',
  forbidden: 'Your role does not allow this.',
  not_found: 'Not found.',
  bad_request: 'Please check the highlighted fields.',
  conflict: 'This conflicts with existing data.',
  rate_limited: 'Too many requests. Please wait a moment and try again.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'The service is temporarily unavailable.',
};

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
