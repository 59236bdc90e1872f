import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { companies, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { searchTokens } from '@/lib/pool/search-text';
import { registerRetrieve, runRetrieve, today } from './retrieve';

describe('retrieve command options', () => {
  const parse = (...args: string[]) => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    registerRetrieve(program);
    const command = program.commands[0];
    // Stop before the action: only the parsed options are under test here.
    command.action(() => {});
    program.parse(['node', 'cli', 'retrieve', ...args]);
    return command.opts();
  };

  it('defaults to today and ten results, and parses numbers', () => {
    expect(parse('--company', 'tesla', '--query', 'recall')).toMatchObject({ asOf: today(), k: 10 });
    expect(parse('--company', 'tesla', '--query', 'recall', '--as-of', '2024-02-29', '--k', '3', '--recency-days', '365')).toMatchObject({
      asOf: '2024-02-29',
      k: 3,
      recencyDays: 365,
    });
  });

  it('rejects an impossible date and a k out of range', () => {
    expect(() => parse('--company', 'tesla', '--query', 'x', '--as-of', '2023-02-29')).toThrow(/real date written YYYY-MM-DD/);
    expect(() => parse('--company', 'tesla', '--query', 'x', '--k', '0')).toThrow(/whole number from 1 to 100/);
    expect(() => parse('--company', 'tesla', '--query', 'x', '--k', '2.5')).toThrow(/whole number/);
  });
});

describe.each(testBackends())('runRetrieve on %s', (backend) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    await handle.db.insert(companies).values({ id: 'hanil-steel', name: '한일제강', country: 'KR' });
    const item = (id: string, title: string, text: string, publishedDate: string) => ({
      id,
      companyId: 'hanil-steel',
      category: 'legal_proceedings',
      title,
      text,
      publishedDate,
      sourceName: '금융감독원 전자공시시스템',
      sourceUrl: `https://dart.fss.or.kr/${id}`,
      language: 'ko',
      searchTokens: searchTokens(title, text),
    });
    await handle.db
      .insert(evidenceItems)
      .values([
        item('hanil-1', '손해배상 청구소송 피소', '거래처가 납품 지연을 이유로 손해배상 청구소송을 제기함.', '2024-03-02'),
        item('hanil-2', '항소심 판결', '손해배상 청구소송 항소심에서 일부 승소.', '2024-09-15'),
      ]);
  });
  afterAll(() => handle?.close());

  it('prints one JSON object with the request and the ranked results', async () => {
    const lines = await runRetrieve(handle.db, { company: 'hanil-steel', query: '소송', asOf: '2024-06-30', k: 5, recencyDays: 30, json: true });
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(out).toMatchObject({ company: 'hanil-steel', query: '소송', asOf: '2024-06-30' });
    expect(out.results).toEqual([expect.objectContaining({ kind: 'evidence', id: 'hanil-1', publishedDate: '2024-03-02', stale: true })]);
  });

  it('prints a readable list, and says so when nothing matches', async () => {
    const lines = await runRetrieve(handle.db, { company: 'hanil-steel', query: '소송', asOf: '2024-12-31', k: 10 });
    expect(lines[0]).toBe('2 results for "소송" in 한일제강 (hanil-steel) as of 2024-12-31:');
    expect(lines.join('\n')).toMatch(
      / \d\. \[evidence\] 항소심 판결\n {4}2024-09-15 · 금융감독원 전자공시시스템 · score \d\.\d{3}\n {4}손해배상 .*\n {4}https:\/\/dart\.fss\.or\.kr\/hanil-2/,
    );
    const none = await runRetrieve(handle.db, { company: 'hanil-steel', query: 'cybersecurity', asOf: '2024-12-31', k: 10 });
    expect(none).toEqual(['Nothing in 한일제강 (hanil-steel)\'s pool matches "cybersecurity" as of 2024-12-31.']);
  });

  it('refuses an unknown company with a clear message', async () => {
    await expect(runRetrieve(handle.db, { company: 'no-such-co', query: 'x', asOf: '2024-12-31', k: 10 })).rejects.toThrow(/Unknown company "no-such-co"/);
  });
});
