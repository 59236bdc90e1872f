// The chips of one filing tell its items apart: each shows its item's title, the source stays in
// the popover (components/run/citation-chip.tsx, lib/report/chip-label.ts).
import fs from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CitationChip } from '@/components/run/citation-chip';
import { chipLabel, CHIP_LABEL_CHARS } from '@/lib/report/chip-label';
import type { EvidenceRef } from '@/lib/report/run-state';

type Row = { id: string; title: string; source_name: string; published_date: string; source_url: string };
const pool = new Map(
  fs
    .readFileSync('data/demo/evidence.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row)
    .map((r) => [r.id, r]),
);
const refOf = (id: string): EvidenceRef => {
  const r = pool.get(id)!;
  return { id, title: r.title, date: r.published_date, source: r.source_name, url: r.source_url };
};
const chip = (id: string, verified = true) => {
  const r = pool.get(id)!;
  return renderToStaticMarkup(
    createElement(CitationChip, { citation: { evidenceId: id, source: r.source_name, date: r.published_date, verified }, evidence: refOf(id) }),
  );
};
const text = (html: string, testId: string) => {
  const m = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html);
  return m
    ? m[1]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
    : null;
};

describe('citation chips', () => {
  it('label two items of one 10-K by their titles, with the source in the popover', () => {
    // tesla-022 and tesla-023 are both "SEC EDGAR — Tesla, Inc. Form 10-K for fiscal year 2024 (accession …)".
    expect(pool.get('tesla-022')!.source_name).toBe(pool.get('tesla-023')!.source_name);
    const [a, b] = [chip('tesla-022'), chip('tesla-023')];
    expect(text(a, 'citation-label')).toBe('Headcount 125,665 employees worldwide');
    expect(text(b, 'citation-label')).toBe('Management bench: 68% of managers promoted…');
    expect(text(a, 'citation-label')).not.toBe(text(b, 'citation-label'));
    // The full title and the source are one hover away.
    expect(text(a, 'citation-title')).toBe('Headcount 125,665 employees worldwide (Dec 31, 2024)');
    expect(a).toContain('SEC EDGAR — Tesla, Inc. Form 10-K for fiscal year 2024');
  });

  it("label the 26 items of Samsung's half-year report apart (Korean titles)", () => {
    const ids = [...pool.values()].filter((r) => r.source_name.startsWith('DART 반기보고서(2022.06) — 삼성전자')).map((r) => r.id);
    expect(ids.length).toBe(26);
    const labels = ids.map((id) => text(chip(id), 'citation-label')!);
    expect(new Set(labels).size).toBe(ids.length);
    for (const l of labels) expect(l.length).toBeLessThanOrEqual(CHIP_LABEL_CHARS);
    expect(labels[0]).toBe('특허 보유 현황: 전세계 누적 223,121건 (2022년 반기말)');
  });

  it('show the source the model wrote on an unverified citation, never a pool title', () => {
    const html = chip('tesla-022', false);
    expect(text(html, 'citation-label')).toBe(pool.get('tesla-022')!.source_name);
    expect(html).not.toContain('Headcount');
  });

  it('cut a long title at a word, dropping a closing tag the date already gives', () => {
    expect(chipLabel('Form 8-K Item 5.02: Departure of Directors or Certain Officers (event 2022-09-25)')).toBe('Form 8-K Item 5.02: Departure of Directors…');
    expect(chipLabel('Weather sensitivity: mild winter slowed core Northern markets (Q3 FY2020 call)', 70)).toBe(
      'Weather sensitivity: mild winter slowed core Northern markets',
    );
    expect(chipLabel('짧은 제목')).toBe('짧은 제목');
  });
});
