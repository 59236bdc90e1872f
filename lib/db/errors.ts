// How to read a database error. isDatabaseUnavailable: "the database is not reachable right now"
// (a restart, a failover, a network cut) rather than "this write was wrong"; a queue worker hands
// a run over on the first kind, so the run resumes once the database is back, instead of
// recording it as failed. badDataReason: "the database refused this value" (a NUL character, a
// key too long for its index), said in a short sentence that never quotes the value.
//
// Error messages can quote user text of any length (a rejected 5 MB title), so only their start
// is ever matched against a pattern.
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES =
  /connection terminated|terminating connection|connection[^\n]{0,80}?(closed|ended)|client has encountered a connection error|cannot use a pool after calling end|the database system is (starting up|shutting down)/i;
const MATCHED_CHARS = 500;

/** An error and its causes, at most five deep. */
function* chain(err: unknown) {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    yield { code: typeof code === 'string' ? code : undefined, message: typeof message === 'string' ? message.slice(0, MATCHED_CHARS) : undefined };
  }
}

export function isDatabaseUnavailable(err: unknown): boolean {
  for (const { code, message } of chain(err)) {
    // SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutdown, crash, cannot connect now).
    if (code && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code) || CONNECTION_CODES.has(code))) return true;
    if (message && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Why the database refused a value, when it did: SQLSTATE class 22 (data exception: a NUL
 * character, an invalid escape in JSON) or 54000 (a value too long for an index or a text search
 * vector). Undefined for every other error. The sentence is ours, not the database's, whose
 * message and detail may quote the whole value.
 */
export function badDataReason(err: unknown): string | undefined {
  const bad = badData(err);
  if (!bad) return undefined;
  return bad.kind === 'tooLong'
    ? 'A value is too long for the database (for example a title or web address far longer than any real one).'
    : `The database refused a value as malformed (SQLSTATE ${bad.code}), for example a NUL character.`;
}

/** What badDataReason says, as data: the import shows it in the reader's language. */
export function badData(err: unknown): { kind: 'tooLong' } | { kind: 'malformed'; code: string } | undefined {
  for (const { code } of chain(err)) {
    if (code === '54000') return { kind: 'tooLong' };
    if (code?.startsWith('22')) return { kind: 'malformed', code };
  }
  return undefined;
}
