// CSV for download (RFC 4180 with CRLF line ends), written by csv-stringify, the sibling of the
// csv-parse that reads imports. Cells are quoted only when they must be. A text cell that starts
// with = + - or @ gets a leading ' so a spreadsheet shows it rather than running it as a formula
// (CSV injection: a company or evaluator name is user text).
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null | undefined;

const guard = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);

/** The records as CSV text, each line ended by CRLF; null and undefined are empty cells. */
export function csvText(records: readonly (readonly CsvCell[])[]): string {
  return stringify(
    records.map((r) => [...r]),
    {
      record_delimiter: '\r\n',
      // A lone \n or \r in a cell is quoted too: csv-stringify stops doing so once the delimiter is set.
      quote_record_delimiter: true,
      // Numbers pass through the guard as well: a negative number is text to a formula check.
      cast: { string: guard, number: (n) => guard(String(n)) },
    },
  );
}
