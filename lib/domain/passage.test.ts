import { describe, expect, it } from 'vitest';
import { parsePassageRange, passageHref } from '@/lib/domain/passage';

describe('a passage address', () => {
  it('names the document page with the range highlighted, its ids encoded', () => {
    expect(passageHref({ companyId: 'tesla', documentId: 'tesla--upload-0123456789abcdef', charStart: 363, charEnd: 789 })).toBe(
      '/companies/tesla/documents/tesla--upload-0123456789abcdef?at=363-789#passage',
    );
    expect(passageHref({ companyId: 'a b', documentId: 'x/y', charStart: 0, charEnd: 1 })).toBe('/companies/a%20b/documents/x%2Fy?at=0-1#passage');
  });

  it('reads back only a real range inside the body', () => {
    expect(parsePassageRange('363-789', 1000)).toEqual({ start: 363, end: 789 });
    expect(parsePassageRange('363-1001', 1000)).toBeNull();
    expect(parsePassageRange('789-363', 1000)).toBeNull();
    expect(parsePassageRange('5-5', 1000)).toBeNull();
    expect(parsePassageRange(['1-2'], 1000)).toBeNull();
    expect(parsePassageRange('1-2; drop', 1000)).toBeNull();
    expect(parsePassageRange('1234567890-1234567891', 2e9)).toBeNull();
  });
});
