// Whether an error means "the database is not reachable right now" (a restart, a failover, a
// network cut) rather than "this write was wrong". A queue worker hands a run over on the first
// kind, so the run resumes once the database is back, instead of recording it as failed.
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = /connection terminated|terminating connection|connection.*(closed|ended)|client has encountered a connection error|cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      // SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutdown, crash, cannot connect now).
      if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code) || CONNECTION_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}
