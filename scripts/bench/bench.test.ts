import { describe, expect, it } from 'vitest';
import { hangulBigrams } from '@/lib/pool/search-text';
import { documentBatches, evidenceBatches, makeCompanies } from './corpus';
import { benchmarks } from './index';
import { sweepRows, type Phase } from './load';
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

describe('load sweep rows', () => {
  // One worker at 32 runs for a 100 s window: 88 steps finished (8 runs' worth), 40 s of CPU.
  const phase: Phase = {
    workers: 1,
    concurrency: 32,
    windowMs: 100_000,
    stepsPerSecond: 0.88,
    runsPerHour: (0.88 * 3600) / 11,
    firstTokenMs: [500, 700, 900],
    connections: [5, 9],
    workerRssMb: [180, 240, 210],
    probe: {
      tokenLagMs: Array.from({ length: 100 }, (_, i) => i + 1),
      loopDelayMs: { p50: 10, p95: 15, p99: 22.46, max: 40 },
      eventLoopUtilization: 0.264,
      cpuMs: 40_000,
    },
  };
  const rows = Object.fromEntries(sweepRows(phase).map((r) => [r.key, r]));

  it('works out CPU as a share of a core and per finished run', () => {
    expect(rows.cpu_pct_c32.value).toBe(40);
    expect(rows.cpu_s_per_run_c32.value).toBe(5);
  });

  it('reports lag and delay percentiles, utilisation and the largest RSS, with the targets at 32 runs', () => {
    expect(rows.token_lag_p95_ms_c32.value).toBe(95);
    expect(rows.token_lag_p95_ms_c32.target).toEqual({ atMost: 50 });
    expect(rows.token_lag_p99_ms_c32.value).toBe(99);
    expect(rows.loop_delay_p99_ms_c32.value).toBe(22.5);
    expect(rows.loop_utilization_pct_c32.value).toBe(26.4);
    expect(rows.worker_rss_max_mb_c32.value).toBe(240);
    expect(rows.worker_rss_max_mb_c32.target).toEqual({ atMost: 300 });
    expect(rows.runs_per_hour_c32.value).toBe(288);
  });

  it('sets no target at other concurrencies', () => {
    const at16 = sweepRows({ ...phase, concurrency: 16 });
    expect(at16.every((r) => r.target === undefined)).toBe(true);
    expect(at16.map((r) => r.key)).toContain('token_lag_p95_ms_c16');
  });
});
