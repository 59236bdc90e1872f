import { describe, expect, it } from 'vitest';
import { loadDemoData, parseDocument, parseEvidenceJsonl, PoolDataError } from '@/lib/pool/demo-data';

const row = {
  id: 'acme-001',
  company_id: 'acme',
  category: 'patent',
  title: '[등록] 검사장치',
  text: 'KIPRIS 특허 정보',
  value: 12,
  event_date: null,
  published_date: '2023-05-02',
  source_name: 'KIPRIS',
  source_url: 'https://kipris.example/1',
  language: 'ko',
  upstream: null,
  license: null,
};
const jsonl = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n');

describe('parseEvidenceJsonl', () => {
  it('maps rows to camelCase items, skipping blank lines and keeping values as text', () => {
    const items = parseEvidenceJsonl(`${jsonl(row)}\n\n${jsonl({ ...row, id: 'acme-002', value: '' })}\n`, 'evidence.jsonl');
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ id: 'acme-001', companyId: 'acme', value: '12', eventDate: null, publishedDate: '2023-05-02', sourceUrl: 'https://kipris.example/1' });
    expect(items[1].value).toBeNull();
  });

  it('names the file, the line and the field of a bad row', () => {
    const text = jsonl(row, row, { ...row, published_date: '2023/05/02' });
    expect(() => parseEvidenceJsonl(text, 'evidence.jsonl')).toThrow(PoolDataError);
    expect(() => parseEvidenceJsonl(text, 'evidence.jsonl')).toThrow(/^evidence\.jsonl:3: published_date: /);
    expect(() => parseEvidenceJsonl(`${jsonl(row)}\n{"id": `, 'evidence.jsonl')).toThrow(/^evidence\.jsonl:2: not valid JSON/);
  });

  it('refuses items without a source or with a source that is not a web address', () => {
    const { source_url: _omit, ...noSource } = row;
    expect(() => parseEvidenceJsonl(jsonl(noSource), 'e.jsonl')).toThrow(/e\.jsonl:1: source_url/);
    expect(() => parseEvidenceJsonl(jsonl({ ...row, source_url: 'javascript:alert(1)' }), 'e.jsonl')).toThrow(/source_url/);
    expect(() => parseEvidenceJsonl(jsonl({ ...row, category: 'gossip' }), 'e.jsonl')).toThrow(/category/);
  });
});

describe('parseDocument', () => {
  it('takes the id from the file name, normalises YAML dates and keeps unmodelled fields in meta', () => {
    const markdown = [
      '---',
      'title: "Q2 call"',
      'company_id: acme',
      'kind: earnings_call',
      'published_date: 2020-07-23',
      'source_name: Rev',
      'source_url: "https://example.com/call"',
      'language: en',
      'call_date: 2020-07-23',
      'date_note: "from the operator"',
      '---',
      '',
      '[Speaker 0] Good morning.',
    ].join('\n');
    const doc = parseDocument(markdown, 'documents/acme--q2-call.md');
    expect(doc).toMatchObject({ id: 'acme--q2-call', companyId: 'acme', publishedDate: '2020-07-23', license: null });
    expect(doc.meta).toEqual({ call_date: '2020-07-23', date_note: 'from the operator' });
    expect(doc.body.trim()).toBe('[Speaker 0] Good morning.');
  });

  it('names the file when the front matter is incomplete', () => {
    expect(() => parseDocument('---\ntitle: x\n---\nbody', 'documents/x.md')).toThrow(/^documents\/x\.md: front matter: .*company_id/);
  });
});

describe('loadDemoData', () => {
  it('reads the shipped demo pool, with every record pointing at a known company', () => {
    const pool = loadDemoData();
    expect(pool.companies.map((c) => c.id)).toContain('taeyoung-engineering-construction');
    expect(pool.evidence.length).toBeGreaterThan(100);
    expect(pool.documents.length).toBeGreaterThan(0);
    const companyIds = new Set(pool.companies.map((c) => c.id));
    for (const d of pool.documents) {
      expect(companyIds.has(d.companyId)).toBe(true);
      expect(d.id.startsWith(`${d.companyId}--`), d.id).toBe(true);
      expect(d.meta).not.toHaveProperty('title');
    }
  });
});
