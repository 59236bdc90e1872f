// Retrieval latency at the sizes we plan for: 100,000 evidence items (10,000 with
// --quick) across 50 companies plus 10,000 document passages, searched with a mix of Korean,
// English, mixed and deliberately broad queries the way agents and RMs ask them.
import type { Db } from '@/lib/db/client';
import { analyzeDatabase, checkpointDatabase, insertCompanyRows, insertDocumentWithChunks, insertEvidenceRows } from '@/lib/db/queries/bulk-load';
import { retrieve } from '@/lib/pool/retrieve';
import { seededRandom } from '@/lib/util/random';
import { documentBatches, evidenceBatches, makeCompanies } from './corpus';
import { median, percentile, round, timed } from './stats';
import type { Benchmark, BenchContext, BenchRow } from './types';

const COMPANIES = 50;
const QUERIES = 200;
const WARM_UP = 10;
const BATCH = 1_000;
/** Batches per transaction: big enough to amortise commits, small enough to report progress. */
const BATCHES_PER_TX = 10;
const CHUNKS_PER_DOCUMENT = 20;

type QueryGroup = 'korean' | 'english' | 'mixed' | 'broad';
export const QUERY_MIX: Record<QueryGroup, string[]> = {
  korean: [
    '소송',
    '반도체',
    '특허',
    '유동성',
    '워크아웃',
    '과징금',
    '신용등급',
    '리콜',
    '파업',
    '유출',
    '침해소송',
    '회생절차',
    '우발채무',
    '메모리반도체',
    '소송이',
    '반도체의 업황',
    '신용등급이 하향',
    '중대재해',
    '랜섬웨어 공격',
    '감사의견 한정',
  ],
  english: [
    'lawsuit',
    'lawsuits',
    'cybersecurity',
    'data breach',
    'ransomware',
    'covenant breach',
    'credit rating downgrade',
    'recall',
    'antitrust investigation',
    'going concern',
    '"class action"',
    'emissions fine',
    'CEO resignation',
    'supply chain disruption',
  ],
  mixed: ['HBM 공급', 'ESG 등급', 'lawsuit 소송', 'SEC enforcement 제재', 'patent 특허 라이선스', 'liquidity 유동성 위기'],
  broad: ['공시', '영향', 'company', 'disclosed', 'million', '판단 재무상태', 'financial condition material adverse effect'],
};

async function insertAll<T>(
  db: Db,
  batches: Iterable<T>,
  write: (tx: Parameters<Parameters<Db['transaction']>[0]>[0], batch: T) => Promise<number>,
  log: (done: number) => void,
) {
  let rows = 0;
  let ms = 0;
  let pending: T[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    const t = await timed(() =>
      db.transaction(async (tx) => {
        let n = 0;
        for (const batch of group) n += await write(tx, batch);
        return n;
      }),
    );
    rows += t.result;
    ms += t.ms;
    log(rows);
  };
  // Data is generated between transactions and not timed: the figure is the database's rate.
  for (const batch of batches) {
    pending.push(batch);
    if (pending.length === BATCHES_PER_TX) await flush();
  }
  await flush();
  return { rows, ms };
}

/** Fills an empty database with the synthetic pool; exported for investigating query plans by hand. */
export async function loadCorpus(db: Db, ctx: Pick<BenchContext, 'log'>, evidenceCount: number, chunkCount: number) {
  const pool = makeCompanies(COMPANIES);
  await insertCompanyRows({ db, rows: pool.map(({ id, name, country }) => ({ id, name, country })) });
  const progress = (what: string, total: number) => {
    let shown = 0;
    return (done: number) => {
      const tenth = Math.floor((done / total) * 10);
      if (tenth > shown) ctx.log(`  ${what}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`);
      shown = Math.max(shown, tenth);
    };
  };
  const evidence = await insertAll(
    db,
    evidenceBatches(pool, evidenceCount, BATCH),
    async (tx, batch) => {
      await insertEvidenceRows({ db: tx, rows: batch });
      return batch.length;
    },
    progress('evidence', evidenceCount),
  );
  const chunks = await insertAll(
    db,
    documentBatches(pool, chunkCount, CHUNKS_PER_DOCUMENT),
    async (tx, { document, chunks }) => {
      await insertDocumentWithChunks({ db: tx, document, chunks });
      return chunks.length;
    },
    progress('chunks', chunkCount),
  );
  // What an import should do after a bulk load. PGlite has no autovacuum, so without ANALYZE the
  // planner guesses how common a word is; nor a background writer, so without CHECKPOINT the
  // first queries pay for writing out the pages the load left dirty.
  const maintenance = await timed(async () => {
    await analyzeDatabase({ db });
    await checkpointDatabase({ db });
  });
  return { pool, evidence, chunks, maintenanceMs: maintenance.ms };
}

export const retrievalBenchmark: Benchmark = {
  name: 'retrieval',
  description: 'retrieve() latency over a mixed Korean/English pool, and its bulk insert rate',
  async run(ctx) {
    const evidenceCount = ctx.quick ? 10_000 : 100_000;
    const chunkCount = ctx.quick ? 1_000 : 10_000;
    const size = `${evidenceCount / 1000}k items`;
    const handle = await ctx.scratchDatabase();
    try {
      ctx.log(
        `retrieval: loading ${evidenceCount.toLocaleString('en')} evidence items and ${chunkCount.toLocaleString('en')} chunks into ${handle.kind} (${handle.location})`,
      );
      const { pool, evidence, chunks, maintenanceMs } = await loadCorpus(handle.db, ctx, evidenceCount, chunkCount);

      const r = seededRandom(7);
      const groups = Object.keys(QUERY_MIX) as QueryGroup[];
      const plan = Array.from({ length: WARM_UP + QUERIES }, () => {
        const group = groups[Math.floor(r() * groups.length)];
        const list = QUERY_MIX[group];
        const asOf = `${2019 + Math.floor(r() * 7)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-15`;
        return { group, query: list[Math.floor(r() * list.length)], companyId: pool[Math.floor(r() * pool.length)].id, asOf };
      });

      ctx.log(`retrieval: ${QUERIES} queries after ${WARM_UP} to warm up`);
      const latencies: Record<QueryGroup, number[]> = { korean: [], english: [], mixed: [], broad: [] };
      const all: number[] = [];
      // PGlite runs inside this process, so its CPU time is the query's own work: a figure that
      // other load on the machine inflates far less than wall time.
      const cpu: number[] = [];
      let returned = 0;
      for (const [i, q] of plan.entries()) {
        const before = process.cpuUsage();
        const t = await timed(() => retrieve({ db: handle.db, companyId: q.companyId, query: q.query, asOf: q.asOf, k: 10, recencyDays: 365 }));
        const used = process.cpuUsage(before);
        if (i < WARM_UP) continue;
        all.push(t.ms);
        cpu.push((used.user + used.system) / 1000);
        latencies[q.group].push(t.ms);
        returned += t.result.length;
      }

      const rows: BenchRow[] = [
        { name: 'retrieval', metric: `insert evidence (${size})`, value: round(evidence.rows / (evidence.ms / 1000), 0), unit: 'rows/s' },
        { name: 'retrieval', metric: `insert chunks (${chunkCount / 1000}k)`, value: round(chunks.rows / (chunks.ms / 1000), 0), unit: 'rows/s' },
        { name: 'retrieval', metric: 'analyze + checkpoint after load', value: round(maintenanceMs, 0), unit: 'ms' },
        { name: 'retrieval', metric: `retrieve median (${size})`, value: round(median(all)), unit: 'ms' },
        { name: 'retrieval', metric: `retrieve p95 (${size})`, value: round(percentile(all, 95)), unit: 'ms', target: { atMost: 50 } },
        { name: 'retrieval', metric: `retrieve max (${size})`, value: round(Math.max(...all)), unit: 'ms' },
        ...(handle.kind === 'pglite'
          ? [{ name: 'retrieval', metric: `retrieve p95 process CPU time (${size})`, value: round(percentile(cpu, 95)), unit: 'ms' }]
          : []),
        ...groups.map((g) => ({
          name: 'retrieval',
          metric: `retrieve p95, ${g} queries (n=${latencies[g].length})`,
          value: round(percentile(latencies[g], 95)),
          unit: 'ms',
        })),
        { name: 'retrieval', metric: 'results per query (k = 10)', value: round(returned / QUERIES), unit: 'rows' },
      ];
      return rows;
    } finally {
      await handle.close();
    }
  },
};
