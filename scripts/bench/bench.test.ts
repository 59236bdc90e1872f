import { describe, expect, it } from 'vitest';
import { hangulBigrams } from '@/lib/pool/search-text';
import { documentBatches, evidenceBatches, makeCompanies } from './corpus';
import { benchmarks } from './index';
import { median, percentile } from './stats';

describe('bench statistics', () => {
  it('takes nearest-rank percentiles and medians', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
    expect(percentile(samples, 95)).toBe(95);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('bench corpus', () => {
  const companies = makeCompanies(5);

  it('is the same for the same seed', () => {
    const first = evidenceBatches(companies, 50, 25).next().value!;
    const again = evidenceBatches(companies, 50, 25).next().value!;
    expect(again).toEqual(first);
  });

  it('mixes Korean and English items of a few hundred characters, indexed like the import', () => {
    const items = [...evidenceBatches(companies, 400, 100)].flat();
    expect(items).toHaveLength(400);
    const korean = items.filter((i) => i.language === 'ko');
    expect(korean.length / items.length).toBeGreaterThan(0.4);
    expect(korean.length / items.length).toBeLessThan(0.9);
    const lengths = items.map((i) => i.text.length).sort((a, b) => a - b);
    expect(lengths[lengths.length >> 1]).toBeGreaterThan(120);
    expect(lengths[lengths.length >> 1]).toBeLessThan(600);
    expect(korean[0].searchTokens.split(' ')).toEqual(hangulBigrams(`${korean[0].title} ${korean[0].text}`));
  });

  it('makes exactly the number of chunks asked for, with offsets into the body', () => {
    const docs = [...documentBatches(companies, 45, 20)];
    expect(docs.flatMap((d) => d.chunks)).toHaveLength(45);
    for (const { document, chunks } of docs) {
      for (const c of chunks) expect(document.body.slice(c.charStart, c.charEnd)).toBe(c.text);
    }
  });
});

describe('bench registry', () => {
  it('has unique names', () => {
    const names = benchmarks.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('retrieval');
  });
});
