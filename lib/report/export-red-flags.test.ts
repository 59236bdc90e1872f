// The JSON export carries the run's red flags as { kind, evidenceId, date, title }, and the
// schema (docs/run-export.schema.json) holds it to that shape.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { STEP_REPAIR_KINDS } from '@/lib/domain/stored';
import { renderExport } from '@/lib/report/export';
import type { ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { SAMSUNG_FLAGS } from '@/lib/pool/red-flags.fixtures';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

describe.each(testBackends())('red flags in the JSON export on %s', (backend) => {
  let handle: DatabaseHandle;
  let input: ReportInput;
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    input = await finishedRun(handle, 'sas', 'samsung-electronics', 'en');
  }, 120_000);
  afterAll(() => handle?.close());

  it('lists each flag with its kind, evidence id, date and title, newest first, and validates', async () => {
    const { body } = await renderExport(input, 'json');
    const json = JSON.parse(body as string);
    expect(json.redFlags).toEqual(SAMSUNG_FLAGS);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(json.report.checks.find((c: { id: string }) => c.id === 'red-flags-addressed')).toMatchObject({ ok: true, items: [] });
  });

  it('keeps to the documented shape: an unknown kind or an extra field fails the schema', async () => {
    const json = JSON.parse((await renderExport(input, 'json')).body as string);
    expect(validate({ ...json, redFlags: [{ ...json.redFlags[0], kind: 'bad_news' }] })).toBe(false);
    expect(validate({ ...json, redFlags: [{ ...json.redFlags[0], sourceName: 'DART' }] })).toBe(false);
  });
});

describe('the export schema and the code', () => {
  it('names every repair kind the engine records, and no other', () => {
    const kinds = schema.$defs.turn.properties.repairs.items.properties.kind.enum as string[];
    expect([...kinds].sort()).toEqual([...STEP_REPAIR_KINDS].sort());
  });
});
