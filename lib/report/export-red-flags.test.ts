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
    expect(json.redFlags).toEqual([
      {
        kind: 'regulatory_sanction',
        evidenceId: 'samsung-electronics-022',
        date: '2021-08-27',
        title: '공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래 (2021.08.27)',
      },
      {
        kind: 'regulatory_sanction',
        evidenceId: 'samsung-electronics-020',
        date: '2021-02-04',
        title: '임직원 형사 제재: 증거인멸 교사(2019.12.09), 노동조합법 위반 확정(2021.02.04)',
      },
      {
        kind: 'regulatory_sanction',
        evidenceId: 'samsung-electronics-019',
        date: '2021-01-25',
        title: '파기환송심 확정: 이재용 부회장 등 징역 2년 6개월 (2021.01.25)',
      },
      {
        kind: 'regulatory_sanction',
        evidenceId: 'samsung-electronics-021',
        date: '2020-12-28',
        title: '산업안전보건 관련 제재: 기흥 CO2 누출 벌금(2020.02.14), 광주사업장 과태료 386.3백만원',
      },
    ]);
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
