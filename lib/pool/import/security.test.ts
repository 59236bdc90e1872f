// The import against hostile files: front matter that is code, rows megabytes long, characters
// the database cannot store, bidirectional controls in names, and an RM's companies.json that
// would rewrite other companies' profiles (docs/security.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, companies, documents, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { importPool, type ImportSource } from '@/lib/pool/import';
import { parseDocument } from '@/lib/pool/import/parse';

const enc = (text: string) => new TextEncoder().encode(text);
const src = (name: string, text: string): ImportSource => ({ name, bytes: enc(text) });
const jsonl = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const company = {
  id: 'guard-co',
  name: '가드상사',
  name_en: null,
  country: 'KR',
  identifiers: { corp_code: '00111111' },
  industry: null,
  description: 'Before.',
};
const item = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `guard-${n}`,
  company_id: 'guard-co',
  category: 'certification',
  title: `인증 ${n}`,
  text: `본문 ${n}`,
  published_date: '2023-03-02',
  source_name: '중소벤처기업부',
  source_url: `https://example.kr/notice/${n}`,
  language: 'ko',
  ...extra,
});
const frontMatter = [
  'title: A document',
  'company_id: guard-co',
  'kind: note',
  'published_date: 2024-01-02',
  'source_name: DART',
  'source_url: "https://example.kr/doc"',
].join('\n');
const doc = (name: string, text: string) => src(`documents/${name}.md`, text);

declare global {
  var frontMatterRan: string | undefined;
}

describe('front matter is data, never code', () => {
  const marker = path.join(os.tmpdir(), `crosscheck-front-matter-${process.pid}`);
  const code = `(globalThis.frontMatterRan = 'yes', require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), { title: 'x' })`;

  it.each(['js', 'javascript', 'coffee', ' JS ', 'JavaScript'])('a document with ---%s front matter is refused by name, and its code does not run', (mark) => {
    globalThis.frontMatterRan = undefined;
    fs.rmSync(marker, { force: true });
    const { document, rejected } = parseDocument('documents/evil.md', `---${mark}\n${code}\n---\nBody.\n`);
    expect(globalThis.frontMatterRan).toBeUndefined();
    expect(fs.existsSync(marker)).toBe(false);
    expect(document).toBeUndefined();
    expect(rejected).toMatchObject([
      {
        file: 'documents/evil.md',
        row: 1,
        field: null,
        message: `The front matter is marked "${mark.trim()}"; only YAML front matter is read, and it is never run as code.`,
      },
    ]);
  });

  it('YAML code tags (!!js/function, !!js/regexp, !!js/undefined) are refused as invalid YAML, not honoured', () => {
    for (const tag of [`!!js/function "function () { ${code} }"`, '!!js/regexp /a/', '!!js/undefined ""']) {
      globalThis.frontMatterRan = undefined;
      const { document, rejected } = parseDocument('documents/evil.md', `---\n${frontMatter}\nhook: ${tag}\n---\nBody.\n`);
      expect(document).toBeUndefined();
      expect(rejected).toEqual([
        expect.objectContaining({ row: 1, field: null, message: expect.stringMatching(/^The front matter is not valid YAML: unknown tag/) }),
      ]);
      expect(globalThis.frontMatterRan).toBeUndefined();
    }
  });

  it('YAML aliases cannot expand a few lines into millions of stored values', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
    ].join('\n');
    const { document, rejected } = parseDocument('documents/bomb.md', `---\n${frontMatter}\n${bomb}\n---\nBody.\n`);
    expect(document).toBeUndefined();
    expect(rejected[0].message).toMatch(/at most 2,000 values/);
  });

  it('front matter over 20,000 characters is refused before it is parsed', () => {
    const { rejected } = parseDocument('documents/long.md', `---\n${frontMatter}\nnote: "${'x'.repeat(20_000)}"\n---\nBody.\n`);
    expect(rejected).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^The front matter is 20,\d{3} characters long; the most is 20,000\.$/) }),
    ]);
  });

  it('ordinary YAML front matter still reads, with its line numbers and the line the body starts on', () => {
    const { document, rejected } = parseDocument('documents/ok.md', `\uFEFF---yaml\r\n${frontMatter}\r\n---\r\n\r\n## Heading\r\nText.\r\n`);
    expect(rejected).toEqual([]);
    expect(document).toMatchObject({ frontMatter: { title: 'A document', kind: 'note' }, frontMatterLines: { title: 2, source_url: 7 }, bodyLine: 9 });
    expect(document!.body.startsWith('\r\n## Heading')).toBe(true);
  });
});

describe.each(testBackends())('import hardening on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const count = async (table: Parameters<Db['$count']>[0]) => Number(await db.$count(table));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    const report = await importPool({ db, sources: [src('companies.json', JSON.stringify([company]))], actorId: null });
    expect(report.imported.companies).toBe(1);
  });
  afterAll(() => handle?.close());

  it('a ---js document in a folder import is a named row error; nothing runs and nothing is written', async () => {
    globalThis.frontMatterRan = undefined;
    const report = await importPool({
      db,
      sources: [
        doc('guard-co--evil', "---js\n(globalThis.frontMatterRan = 'yes', { title: 'x' })\n---\nBody.\n"),
        doc('guard-co--fine', `---\n${frontMatter}\n---\nBody.\n`),
      ],
      actorId: null,
    });
    expect(globalThis.frontMatterRan).toBeUndefined();
    expect(report.written).toBe(false);
    expect(report.rejected).toEqual([
      expect.objectContaining({ file: 'documents/guard-co--evil.md', row: 1, field: null, message: expect.stringMatching(/marked "js"/) }),
    ]);
    expect(await count(documents)).toBe(0);
  });

  it('a row with a 5 MB title is a named rejection giving its length and the limit, and nothing is written', async () => {
    const before = await count(evidenceItems);
    const title = 'A'.repeat(5_000_012);
    const started = performance.now();
    const report = await importPool({ db, sources: [src('huge.jsonl', jsonl(item(1), item(2, { title })))], actorId: null });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(report.written).toBe(false);
    expect(report.rejected).toMatchObject([{ file: 'huge.jsonl', row: 2, field: 'title', message: 'is 5,000,012 characters long; the most is 500' }]);
    expect(await count(evidenceItems)).toBe(before);
  });

  it('every text field has a maximum length, and a value over it is named by field', async () => {
    const over = (n: number) => 'x'.repeat(n + 1);
    const report = await importPool({
      db,
      sources: [
        src(
          'long.jsonl',
          jsonl(
            item(3, { text: over(20_000) }),
            item(4, { source_name: over(300) }),
            item(5, { source_url: `https://example.kr/${over(2_000)}` }),
            item(6, { value: over(200) }),
            item(7, { license: over(1_000) }),
            item(8, { id: over(200) }),
          ),
        ),
        src('companies.json', JSON.stringify([{ ...company, id: 'long-co', name: over(200), description: over(5_000) }])),
      ],
      actorId: null,
    });
    expect(report.rejected.map((r) => `${r.file}:${r.field}:${r.message.replace(/^is [\d,]+ characters/, 'is N characters')}`)).toEqual([
      'companies.json:name:is N characters long; the most is 200',
      'companies.json:description:is N characters long; the most is 5,000',
      'long.jsonl:text:is N characters long; the most is 20,000',
      'long.jsonl:source_name:is N characters long; the most is 300',
      'long.jsonl:source_url:is N characters long; the most is 2,000',
      'long.jsonl:value:is N characters long; the most is 200',
      'long.jsonl:license:is N characters long; the most is 1,000',
      'long.jsonl:id:is N characters long; the most is 200',
    ]);
  });

  it("a title and web address too long together for the duplicate index are a named rejection, not the database's error", async () => {
    const report = await importPool({
      db,
      sources: [src('wide.jsonl', jsonl(item(9, { title: '가'.repeat(500), source_url: `https://example.kr/${'p'.repeat(1_900)}` })))],
      actorId: null,
    });
    expect(report.rejected).toMatchObject([
      { file: 'wide.jsonl', row: 1, field: 'title', message: expect.stringMatching(/^and source_url together are 3,\d{3} bytes in UTF-8; the most is 2,400$/) },
    ]);
    // Just under the limit goes in: the index takes it.
    const ok = await importPool({
      db,
      sources: [src('wide.jsonl', jsonl(item(9, { title: '가'.repeat(500), source_url: `https://example.kr/${'p'.repeat(800)}` })))],
      actorId: null,
    });
    expect(ok.imported.evidence).toBe(1);
  });

  it('a NUL character or a lone surrogate is a named row error, and with valid-only the rest of the import goes in', async () => {
    const rows = [
      item(10, { title: 'NUL\u0000inside' }),
      item(11, { text: 'half a pair \ud800 here' }),
      item(12, { source_name: 'trailing \udc00' }),
      item(13),
    ];
    // JSON escapes are how such characters arrive in a file that is itself valid UTF-8.
    const text = rows
      .map((r) =>
        JSON.stringify(r)
          .replace(/\u0000/g, '\\u0000')
          .replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`),
      )
      .join('\n');
    expect(text).not.toMatch(/[\u0000\ud800-\udfff]/);
    const blocked = await importPool({ db, sources: [src('bad-chars.jsonl', text)], actorId: null });
    expect(blocked.written).toBe(false);
    expect(blocked.rejected).toMatchObject([
      { file: 'bad-chars.jsonl', row: 1, field: 'title', message: 'contains a NUL character (U+0000) at character 4, which cannot be stored; remove it' },
      {
        file: 'bad-chars.jsonl',
        row: 2,
        field: 'text',
        message: "contains a broken character (half of a surrogate pair, U+D800) at character 13, which cannot be stored; check the file's encoding",
      },
      { file: 'bad-chars.jsonl', row: 3, field: 'source_name', message: expect.stringMatching(/U\+DC00\) at character 10/) },
    ]);
    const report = await importPool({ db, sources: [src('bad-chars.jsonl', text)], actorId: null, validOnly: true });
    expect(report.written).toBe(true);
    expect(report.imported.evidence).toBe(1);
    expect(await db.select({ id: evidenceItems.id }).from(evidenceItems).where(eq(evidenceItems.id, 'guard-13'))).toEqual([{ id: 'guard-13' }]);
  });

  it('NUL characters in a company identifier, a front matter field, a document body or a file name are named too', async () => {
    const report = await importPool({
      db,
      sources: [
        src('companies.json', JSON.stringify([{ ...company, id: 'nul-co', identifiers: { cik: '1\u00002' } }])),
        doc('guard-co--nul-meta', `---\n${frontMatter}\nnote: "a\\0b"\n---\nBody.\n`),
        doc('guard-co--nul-body', `---\n${frontMatter}\n---\nLine one.\nLine \u0000two.\n`),
        src('evil\u0000name.jsonl', jsonl(item(14))),
      ],
      actorId: null,
      validOnly: true,
    });
    expect(report.rejected.map((r) => `${r.file}:${r.row}:${r.field}:${r.message.slice(0, 30)}`)).toEqual([
      'companies.json:1:identifiers:contains a NUL character (U+00',
      'documents/guard-co--nul-body.md:10:body:contains a NUL character (U+00',
      'documents/guard-co--nul-meta.md:8:note:contains a NUL character (U+00',
      'evil\uFFFDname.jsonl:0:null:The file name contains a NUL c',
    ]);
    expect(report.written).toBe(true);
    expect(await count(documents)).toBe(0);
  });

  it('bidirectional controls are removed from names and titles on import', async () => {
    const rlo = '\u202E';
    const report = await importPool({
      db,
      sources: [
        src('companies.json', JSON.stringify([{ ...company, id: 'bidi-co', name: `Acme${rlo}gpj.exe\u2066` }])),
        src('bidi.jsonl', jsonl({ ...item(15), company_id: 'bidi-co', title: `Invoice ${rlo}fdp.exe`, source_name: `Wire\u202Bx` })),
        doc('bidi-co--doc', `---\n${frontMatter.replace('A document', `Doc\u2067ument`).replace('guard-co', 'bidi-co')}\n---\nBody.\n`),
      ],
      actorId: null,
    });
    expect(report.rejected).toEqual([]);
    const [corp] = await db.select().from(companies).where(eq(companies.id, 'bidi-co'));
    const [row] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'guard-15'));
    const [document] = await db.select().from(documents).where(eq(documents.id, 'bidi-co--doc'));
    expect([corp.name, row.title, row.sourceName, document.title]).toEqual(['Acmegpj.exe', 'Invoice fdp.exe', 'Wirex', 'Document']);
  });

  describe("companies.json and existing companies' profiles", () => {
    const changed = {
      ...company,
      name: '가짜상사',
      country: 'US',
      name_en: 'Guard Trading',
      identifiers: { corp_code: '00999999', cik: '0000123' },
      description: 'After.',
    };

    it("an RM's import of companies.json with a changed name leaves the existing profile unchanged, fills what it lacked, and says what it skipped", async () => {
      const report = await importPool({ db, sources: [src('companies.json', JSON.stringify([changed]))], actorId: null });
      expect(report.written).toBe(true);
      expect(report.rejected).toEqual([]);
      expect(report.skippedProfileChanges).toMatchObject([
        {
          file: 'companies.json',
          row: 1,
          companyId: 'guard-co',
          fields: ['name', 'country', 'description', 'identifiers.corp_code'],
          message: `Left the profile of "guard-co" as it was (name, country, description, identifiers.corp_code): only an administrator can change an existing company's profile.`,
        },
      ]);
      expect(report.updatedCompanies).toEqual([{ id: 'guard-co', fields: ['name_en', 'identifiers.cik'] }]);
      const [corp] = await db.select().from(companies).where(eq(companies.id, 'guard-co'));
      expect(corp).toMatchObject({
        name: '가드상사',
        country: 'KR',
        description: 'Before.',
        corpCode: '00111111',
        nameEn: 'Guard Trading',
        cik: '0000123',
        identifiers: { corp_code: '00111111', cik: '0000123' },
      });
      const [audit] = await db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
      expect(audit.detail).toMatchObject({
        updatedCompanies: [{ id: 'guard-co', fields: ['name_en', 'identifiers.cik'] }],
        skippedProfileChanges: [{ id: 'guard-co', fields: ['name', 'country', 'description', 'identifiers.corp_code'] }],
      });
    });

    it("an administrator's import changes the profile, and the audit entry names the fields", async () => {
      const report = await importPool({ db, sources: [src('companies.json', JSON.stringify([changed]))], actorId: null, companyProfiles: 'replace' });
      expect(report.skippedProfileChanges).toEqual([]);
      expect(report.updatedCompanies).toEqual([{ id: 'guard-co', fields: ['name', 'country', 'description', 'identifiers.corp_code'] }]);
      const [corp] = await db.select().from(companies).where(eq(companies.id, 'guard-co'));
      expect(corp).toMatchObject({
        name: '가짜상사',
        country: 'US',
        description: 'After.',
        corpCode: '00999999',
        identifiers: { corp_code: '00999999', cik: '0000123' },
      });
      const [audit] = await db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
      expect(audit.detail).toMatchObject({
        companyProfiles: 'replace',
        updatedCompanies: [{ id: 'guard-co', fields: ['name', 'country', 'description', 'identifiers.corp_code'] }],
      });
      // The same file again changes nothing.
      const again = await importPool({ db, sources: [src('companies.json', JSON.stringify([changed]))], actorId: null, companyProfiles: 'replace' });
      expect(again.updatedCompanies).toEqual([]);
    });

    it('sole_proprietor: a new company takes it; on an existing one only an administrator changes it; anything but true or false is refused', async () => {
      const sole = async (id: string) => (await db.select({ v: companies.soleProprietor }).from(companies).where(eq(companies.id, id)))[0]?.v;
      const person = { ...company, id: 'sole-co', name: 'Kim Trading (sole proprietor)', sole_proprietor: true };
      const plain = { ...company, id: 'plain-co', name: 'Plain Trading' };
      expect((await importPool({ db, sources: [src('companies.json', JSON.stringify([person, plain]))], actorId: null })).rejected).toEqual([]);
      expect([await sole('sole-co'), await sole('plain-co')]).toEqual([true, false]);
      // An RM's import cannot lift a borrower out of the two-vote rule, nor put one in it.
      const rm = await importPool({
        db,
        sources: [
          src(
            'companies.json',
            JSON.stringify([
              { ...person, sole_proprietor: false },
              { ...plain, sole_proprietor: true },
            ]),
          ),
        ],
        actorId: null,
      });
      expect(rm.skippedProfileChanges.map((c) => [c.companyId, c.fields])).toEqual([
        ['sole-co', ['sole_proprietor']],
        ['plain-co', ['sole_proprietor']],
      ]);
      expect([await sole('sole-co'), await sole('plain-co')]).toEqual([true, false]);
      const admin = await importPool({
        db,
        sources: [src('companies.json', JSON.stringify([{ ...person, sole_proprietor: false }]))],
        actorId: null,
        companyProfiles: 'replace',
      });
      expect(admin.updatedCompanies).toEqual([{ id: 'sole-co', fields: ['sole_proprietor'] }]);
      expect(await sole('sole-co')).toBe(false);
      const bad = await importPool({ db, sources: [src('companies.json', JSON.stringify([{ ...plain, sole_proprietor: 'yes' }]))], actorId: null });
      expect(bad.rejected).toMatchObject([{ file: 'companies.json', row: 1, field: 'sole_proprietor', message: 'must be true or false' }]);
    });
  });
});

describe('the messages of these checks, in Korean', () => {
  it('each problem is a phrase of the Import page’s table: its English is the message, and the page shows it in the reader’s language', async () => {
    const { phraseText } = await import('@/lib/i18n');
    const { importMessages } = await import('@/lib/i18n/messages/import');
    const { problem, problemOfIssue } = await import('@/lib/pool/import/problems');
    const { evidenceRow, tooLong, unstorable } = await import('@/lib/pool/import/schemas');
    const { uploadTooLarge } = await import('@/lib/pool/import/upload');
    const { importLimitsFor } = await import('@/lib/pool/import/limits');
    const text = (locale: 'en' | 'ko', p: { phrase?: import('@/lib/i18n').Phrase }) => phraseText([importMessages], locale, p.phrase!);
    const missing = evidenceRow.safeParse({
      company_id: 'acme',
      category: 'patent',
      text: 'x',
      published_date: '2024-01-01',
      source_name: 's',
      source_url: 'https://example.org',
    });
    const problems = [
      tooLong(5_000_012, 500),
      unstorable('a\u0000b')!,
      unstorable('a\ud800b')!,
      parseDocument('d.md', '---js\n1\n---\n').rejected[0],
      parseDocument('d.md', `---\nnote: "${'x'.repeat(20_001)}"\n---\n`).rejected[0],
      parseDocument('d.md', '---\n- a\n---\n').rejected[0],
      uploadTooLarge(30 * 1024 * 1024, importLimitsFor(8)),
      uploadTooLarge(null, importLimitsFor(8)),
      problem('notWritten', { reason: problem('dbMalformed', { code: '22021' }).phrase }),
      problemOfIssue(missing.error!.issues[0].message),
    ];
    for (const p of problems) {
      expect(p.phrase, p.message).toBeDefined();
      expect(text('en', p)).toBe(p.message);
      expect(text('ko', p), p.message).not.toBe(p.message);
    }
    expect(problems.at(-1)!.message).toBe('is missing: a short title');
    expect(text('ko', problems.at(-1)!)).toBe('누락: 짧은 제목');
    expect(text('ko', tooLong(5_000_012, 500))).toBe('5,000,012자입니다. 최대 500자까지 받습니다');
    // A phrase inside a phrase is translated too.
    expect(problems[8].message).toBe('Nothing was written: The database refused a value as malformed (SQLSTATE 22021), for example a NUL character.');
    expect(text('ko', problems[8])).not.toContain('refused');
  });
});
