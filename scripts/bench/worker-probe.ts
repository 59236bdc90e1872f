// Loaded into a queue worker by the load benchmark (`node --import tsx --import <this> scripts/worker.ts`),
// never by the product: measures, inside the worker, between BENCH_PROBE_FROM and BENCH_PROBE_TO
// (epoch ms), then writes one JSON summary to BENCH_PROBE_OUT:
// - token lag: from the fake model writing a chunk (its `x_sent_at` stamp, `--stamp`) to this
//   process reading it, which is where the engine hands it on (publish is synchronous in onToken);
//   a busy event loop shows here first;
// - event-loop delay (perf_hooks histogram) and utilisation;
// - CPU time used (user and system).
import fs from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const out = process.env.BENCH_PROBE_OUT;
const from = Number(process.env.BENCH_PROBE_FROM);
const to = Number(process.env.BENCH_PROBE_TO);

export type ProbeSummary = {
  tokenLagMs: number[];
  loopDelayMs: { p50: number; p95: number; p99: number; max: number };
  eventLoopUtilization: number;
  cpuMs: number;
};

const now = () => performance.timeOrigin + performance.now();
const STAMP = /"x_sent_at":(\d+(?:\.\d+)?)/g;

if (out && Number.isFinite(from) && Number.isFinite(to)) {
  const lags: number[] = [];
  const measuring = () => {
    const t = now();
    return t >= from && t <= to;
  };

  // Every streamed answer passes through here on its way to the OpenAI client.
  const original = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
    const decoder = new TextDecoder();
    // A stamp split between two reads is completed by the next one; 40 characters hold one.
    let tail = '';
    const scan = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const read = now();
        const text = tail + decoder.decode(chunk, { stream: true });
        let end = 0;
        if (measuring()) {
          for (const m of text.matchAll(STAMP)) {
            lags.push(read - Number(m[1]));
            end = m.index + m[0].length;
          }
        }
        tail = text.slice(Math.max(end, text.length - 40));
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(scan), { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let cpuStart: NodeJS.CpuUsage | undefined;
  let eluStart: ReturnType<typeof performance.eventLoopUtilization> | undefined;
  setTimeout(
    () => {
      histogram.enable();
      cpuStart = process.cpuUsage();
      eluStart = performance.eventLoopUtilization();
    },
    Math.max(0, from - now()),
  ).unref();
  setTimeout(
    () => {
      histogram.disable();
      const cpu = process.cpuUsage(cpuStart);
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      const summary: ProbeSummary = {
        tokenLagMs: lags.map((l) => Math.round(l * 100) / 100),
        loopDelayMs: { p50: ms(histogram.percentile(50)), p95: ms(histogram.percentile(95)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
        eventLoopUtilization: performance.eventLoopUtilization(eluStart).utilization,
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
      fs.writeFileSync(out, JSON.stringify(summary));
    },
    Math.max(0, to - now()),
  ).unref();
}
