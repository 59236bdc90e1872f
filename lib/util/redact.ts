// Blanking secrets out of text before it reaches a log line, an error message, a page or a
// stored warning: configured secret values (raw and URL-encoded), the password of any
// `scheme://user:password@` URL, key-bearing query parameters (OpenDART and SerpAPI take the key
// in the query string) and bearer tokens.
//
// The text is often user data (a 5 MB imported title quoted in an error), so every step runs in
// linear time: a hand-written scan for URL passwords, plain string search for secret values,
// and regular expressions without nested or overlapping quantifiers for the rest
// (docs/security.md).

export const REDACTED = '[redacted]';

/** Secret values shorter than this are left alone: they would blank out ordinary words, and real keys are long. */
export const MIN_SECRET_LENGTH = 4;

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(String.fromCharCode(code)));
/** Characters of a URL scheme ([a-z0-9+.-], either case). */
const isSchemeChar = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;

/**
 * Blanks the password of every `scheme://user:password@` in the text. A hand-written scan
 * instead of a regular expression: the expression it replaces backtracked, taking seconds on
 * 80,000 characters. Each character is looked at a bounded number of times: the user part stops
 * at `:` or `/` and the password part at `/`, so neither runs past the next `://`.
 */
export function redactUrlPasswords(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 1)) {
    if (at === 0 || !isSchemeChar(text.charCodeAt(at - 1))) continue;
    const userStart = at + 3;
    let i = userStart;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 58 /* : */ || c === 47 /* / */ || c === 64 /* @ */ || isSpace(c)) break;
    }
    if (i === userStart || text.charCodeAt(i) !== 58) continue;
    const passwordStart = i + 1;
    let j = passwordStart;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 64 || c === 47 || isSpace(c)) break;
    }
    if (j === passwordStart || text.charCodeAt(j) !== 64) continue;
    out += text.slice(copied, passwordStart) + REDACTED;
    copied = j;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Every occurrence of each secret, raw or URL-encoded (a key inside a query string), blanked. */
export function redactValues(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

// Query parameters that carry credentials, whatever the API calls them (OpenDART: crtfc_key).
// One alternation, then one run of a class that cannot match its own delimiter: linear.
const KEY_PARAM = /\b(crtfc_key|api_key|apikey|access_token|token|key)=[^&#\s"'<>]+/gi;
// `Bearer` and its token; the token class excludes white space, so `\s+` and it never overlap.
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/g;

/** Key-bearing query parameters and bearer tokens blanked, whoever's they are. */
export function redactCredentials(text: string): string {
  return text.replace(KEY_PARAM, `$1=${REDACTED}`).replace(BEARER, `Bearer ${REDACTED}`);
}

/**
 * The text with every secret blanked: the given values (raw and URL-encoded), URL passwords,
 * key parameters and bearer tokens. Values go first, so a key is blanked whole even where it
 * also sits in a parameter.
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  return redactCredentials(redactUrlPasswords(redactValues(text, secrets)));
}
