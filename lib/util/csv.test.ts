import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvText } from '@/lib/util/csv';

describe('csvText', () => {
  it('writes CRLF lines, quoting only the cells that need it', () => {
    expect(
      csvText([
        ['id', 'name', 'score'],
        ['a', 'plain', 3],
        ['b', 'with, comma', 4.5],
        ['c', 'say "hi"', null],
        ['d', 'two\nlines', undefined],
        ['e', 'cr\r', ''],
      ]),
    ).toBe('id,name,score\r\na,plain,3\r\nb,"with, comma",4.5\r\nc,"say ""hi""",\r\nd,"two\nlines",\r\ne,"cr\r",\r\n');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvText([['=SUM(A1:A9)', '+1', '-2', '@cmd', -3, 'a=b', ' =x']])).toBe("'=SUM(A1:A9),'+1,'-2,'@cmd,'-3,a=b, =x\r\n");
    expect(csvText([['=HYPERLINK("http://x", "y")']])).toBe(`"'=HYPERLINK(""http://x"", ""y"")"\r\n`);
  });

  it('reads back as it was written', () => {
    const rows = [['한국어, 쉼표', 'line\r\nbreak', '"quoted"', '']];
    expect(parse(csvText(rows))).toEqual(rows);
  });

  it('writes nothing for no records', () => {
    expect(csvText([])).toBe('');
  });
});
