import { describe, expect, it } from 'vitest';
import { redact, redactCredentials, redactUrlPasswords, redactValues } from '@/lib/util/redact';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

describe('redact', () => {
  it('blanks given secrets, raw and URL-encoded, but not values too short to be keys', () => {
    expect(redact(`token ${KEY} and ${encodeURIComponent('p@ss/word+1')}`, [KEY, 'p@ss/word+1'])).toBe('token [redacted] and [redacted]');
    expect(redact('key a+b/c= and a%2Bb%2Fc%3D', ['a+b/c='])).toBe('key [redacted] and [redacted]');
    expect(redact('the key is abc', ['abc', undefined, null, ''])).toBe('the key is abc');
  });

  it('blanks key-bearing query parameters and bearer tokens without being told the value', () => {
    expect(redact(`https://opendart.fss.or.kr/api/list.json?crtfc_key=${KEY}&corp_code=00126380`)).toBe(
      'https://opendart.fss.or.kr/api/list.json?crtfc_key=[redacted]&corp_code=00126380',
    );
    expect(redact('https://x/?q=1&api_key=abc123&num=3')).toBe('https://x/?q=1&api_key=[redacted]&num=3');
    expect(redact('GET /a?Token=t0k#frag and "access_token=zz"')).toBe('GET /a?Token=[redacted]#frag and "access_token=[redacted]"');
    expect(redact('Authorization: Bearer tvly-abc.def')).toBe('Authorization: Bearer [redacted]');
    // Words that merely contain a parameter name are not parameters.
    expect(redact('monkey=1 tokens=2')).toBe('monkey=1 tokens=2');
  });

  it('blanks URL passwords', () => {
    expect(redact('could not connect to postgres://crosscheck:pw-123456@db/x')).toBe('could not connect to postgres://crosscheck:[redacted]@db/x');
  });

  it('gives the same text when run twice, so layers of redaction agree', () => {
    const text = `Bearer ${KEY} https://u:p@h/?api_key=${KEY}&key=${KEY}`;
    const once = redact(text, [KEY]);
    expect(once).toBe('Bearer [redacted] https://u:[redacted]@h/?api_key=[redacted]&key=[redacted]');
    expect(redact(once, [KEY])).toBe(once);
  });

  it('leaves text without secrets as it was', () => {
    const text = 'Nothing to see: https://example.com/a:b@c, 100% = 1/1';
    expect(redact(text, ['unrelated-secret'])).toBe(text);
    expect(redactValues(text, [])).toBe(text);
    expect(redactCredentials(text)).toBe(text);
  });
});

describe('redactUrlPasswords', () => {
  it('blanks every URL password and only those', () => {
    expect(redactUrlPasswords('postgres://u:p4ss@db/x and https://a:b@c/ and mailto:x@y')).toBe(
      'postgres://u:[redacted]@db/x and https://a:[redacted]@c/ and mailto:x@y',
    );
    expect(redactUrlPasswords('see https://example.com/a:b@c and ftp://user@host')).toBe('see https://example.com/a:b@c and ftp://user@host');
    expect(redactUrlPasswords('://u:p@h')).toBe('://u:p@h');
  });
});

describe('redact on hostile text', () => {
  const timed = (fn: () => void) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };

  it('runs in linear time: 1 MB strings built to make a backtracking pattern stall are cleaned fast', () => {
    const hostile = [
      'a'.repeat(1_000_000),
      'a://b:c'.repeat(150_000),
      'key='.repeat(250_000),
      '?api_key'.repeat(125_000),
      `Bearer ${' '.repeat(1_000_000)}!`,
      'Bearer '.repeat(150_000),
      'token=a&'.repeat(125_000),
    ];
    for (const text of hostile) expect(timed(() => redact(text, [KEY, 'secret-value']))).toBeLessThan(500);
  });

  it('grows with the length of the text, not its square', () => {
    // Sixteen times the text: linear work takes about 16 times as long, quadratic 256 times. The
    // bound sits between the two with room for a loaded machine (a CI run lost 8x at 4x the text).
    const best = (s: string) => Math.min(...[0, 1, 2, 3, 4].map(() => timed(() => redact(s, [KEY]))));
    const small = 'key=a '.repeat(10_000);
    const large = 'key=a '.repeat(160_000);
    expect(best(large)).toBeLessThan(Math.max(64 * best(small), 60));
  });
});
