// Operator-facing failures print as one plain sentence, never a stack trace.
/**
 * One line, even for a multi-line EnvError, a connection AggregateError with an empty message,
 * or a failed query (whose own message repeats the SQL and its parameters: the cause says why).
 */
export function describeError(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return describeError(err.errors[0]);
  if (err instanceof Error && err.cause instanceof Error) return describeError(err.cause);
  if (err instanceof Error) return (err.message || (err as NodeJS.ErrnoException).code || err.name).replace(/\s*\n\s*/g, ' ');
  return String(err);
}
