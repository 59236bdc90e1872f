import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunBus, runBus } from '@/lib/debate/bus';
import { encodeFrames, ensureRunRelay, parseFrame, startRunRelay, type RunRelay } from '@/lib/debate/relay';
import { scriptedText } from '@/lib/debate/relay-fixtures/peer';
import type { RunEvent } from '@/lib/domain/protocol';
import { testBackends } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';

/** Runs `fn` with DATABASE_URL set to `url` (or unset), restoring it after. */
async function withDatabaseUrl<T>(url: string | undefined, fn: () => Promise<T> | T): Promise<T> {
  const before = process.env.DATABASE_URL;
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  resetEnvForTests();
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
    resetEnvForTests();
  }
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const at = '2026-01-01T00:00:00.000Z';
const steps = [{ id: 'D1', agent: 'A1', team: 'affirmative' as const, act: 'constructive' as const, context: [] }];

describe('relay frames', () => {
  it('splits a large message into frames under the limit, never inside a character, and joins them again', () => {
    const json = JSON.stringify({ text: `${scriptedText(3, 5000)}😀${scriptedText(4, 100)}` });
    const frames = encodeFrames('origin-1', 42, json, 1000);
    expect(frames.length).toBeGreaterThan(10);
    for (const f of frames) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(1000);
    const parsed = frames.map((f) => parseFrame(f)!);
    expect(parsed.map((p) => [p.origin, p.packetId, p.part, p.total])).toEqual(frames.map((_, i) => ['origin-1', 42, i, frames.length]));
    // Every piece is whole UTF-8 on its own (no lone surrogate, no cut character).
    for (const p of parsed) expect(Buffer.from(p.piece, 'utf8').toString('utf8')).toBe(p.piece);
    expect(parsed.map((p) => p.piece).join('')).toBe(json);
  });

  it('keeps a small message in one frame and rejects payloads that are not frames', () => {
    expect(encodeFrames('o', 1, '{"k":"sync"}', 7800)).toEqual(['o|1|0|1|{"k":"sync"}']);
    expect(parseFrame('o|1|0|1|a|b')).toEqual({ origin: 'o', packetId: 1, part: 0, total: 1, piece: 'a|b' });
    expect(parseFrame('hello')).toBeNull();
    expect(parseFrame('o|x|0|1|{}')).toBeNull();
    expect(parseFrame('o|1|2|2|{}')).toBeNull();
  });
});

describe('ensureRunRelay', () => {
  it('starts no relay on the embedded database', async () => {
    expect(await withDatabaseUrl(undefined, () => ensureRunRelay())).toBeNull();
  });
});

async function until(condition: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Peer = { send: (command: Record<string, unknown>) => Promise<Record<string, unknown>>; close: () => Promise<void> };

/** The fixture in its own OS process: its own bus (a per-process singleton) and relay. */
function startPeer(): Peer {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'lib', 'debate', 'relay-fixtures', 'peer.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const waiting = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    // The relay's own log lines share stdout; answers are the JSON lines that carry an id.
    if (!line.startsWith('{"id":')) return;
    const answer = JSON.parse(line) as { id: number; ok: boolean; error?: string };
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.ok) w?.resolve(answer);
    else w?.reject(new Error(`peer: ${answer.error}`));
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`the peer exited (${code}): ${stderr}`));
    waiting.clear();
  });
  let next = 0;
  return {
    send: (command) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

for (const backend of testBackends().filter((b) => b === 'postgres')) {
  describe(`run relay on ${backend}`, () => {
    const serverUrl = process.env.TEST_DATABASE_URL!.trim();
    // Random hex only, so the name is safe to splice into DDL.
    const name = `crosscheck_relay_${randomBytes(6).toString('hex')}`;
    const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
    const admin = async (sql: string, params: unknown[] = [], on = serverUrl) => {
      const client = new pg.Client({ connectionString: on });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    };
    let relay: RunRelay;
    let peer: Peer;

    beforeAll(async () => {
      await admin(`create database ${name}`);
      relay = startRunRelay({ connectionString: url, instanceId: 'test' });
      await relay.ready;
      peer = startPeer();
      await peer.send({ cmd: 'start', url });
    });

    afterAll(async () => {
      await peer?.send({ cmd: 'stop' }).catch(() => {});
      await peer?.close();
      await relay?.stop();
      await admin(`drop database if exists ${name} with (force)`);
    });

    it('delivers another process\'s run in order: every partial answer and a 30 KB step-done intact', async () => {
      const runId = `relay-script-${randomBytes(4).toString('hex')}`;
      const received: RunEvent[] = [];
      const { unsubscribe } = runBus().subscribe(runId, (e) => received.push(e));
      const answer = (await peer.send({ cmd: 'script', runId, tokens: 1500, bigChars: 12_000 })) as { events: RunEvent[]; delivered: number };
      await until(() => received.at(-1)?.type === 'run-finished', 'the run to finish on this side');
      unsubscribe();

      const published = answer.events;
      const big = published.find((e) => e.type === 'step-done' && e.stepId === 'D1')!;
      expect(big.type === 'step-done' && Buffer.byteLength(big.text)).toBeGreaterThan(30_000);
      // Same events, same order, each as it was published.
      expect(published.filter((e) => e.type === 'step-partial')).toHaveLength(300);
      expect(received).toEqual(published);
      expect(received.find((e) => e.type === 'step-done' && e.stepId === 'D1')).toEqual(big);
      // The publisher's own subscriber saw each event once: its notifications did not come back.
      expect(answer.delivered).toBe(published.length);
      expect(runBus().snapshot(runId).finished).toBe(true);
    });

    it('does not deliver this process\'s own notifications back to it', async () => {
      const watched = `relay-own-${randomBytes(4).toString('hex')}`;
      const ack = `relay-ack-${randomBytes(4).toString('hex')}`;
      await peer.send({ cmd: 'ack-on', watch: watched, ack });
      const own: RunEvent[] = [];
      const acks: RunEvent[] = [];
      runBus().subscribe(watched, (e) => own.push(e));
      runBus().subscribe(ack, (e) => acks.push(e));
      runBus().publish({ type: 'step-started', runId: watched, stepId: 'D1', at, attempt: 1 });
      // The peer acknowledges after receiving it; notifications arrive in commit order, so an
      // echo of ours would have reached us before the acknowledgement.
      await until(() => acks.length === 1, 'the peer\'s acknowledgement');
      expect(own).toHaveLength(1);
    });

    it('reconnects after its connections are terminated, resyncs viewers and resumes delivery', async () => {
      const runId = `relay-reconnect-${randomBytes(4).toString('hex')}`;
      const received: RunEvent[] = [];
      let resyncs = 0;
      runBus().subscribe(runId, (e) => received.push(e), { onResync: () => resyncs++ });
      await peer.send({ cmd: 'publish', event: { type: 'run-started', runId, at, steps } });
      await peer.send({ cmd: 'publish', event: { type: 'step-started', runId, stepId: 'D1', at, attempt: 1 } });
      const first = (await peer.send({ cmd: 'tokens', runId, stepId: 'D1', count: 300, pauseEvery: 50 })) as { text: string };
      await until(() => runBus().snapshot(runId).steps.D1?.text === first.text, 'the first tokens');

      const killed = await admin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name like 'crosscheck-relay %'`,
        [name],
      );
      expect(killed).toHaveLength(4); // listen and notify, in both processes
      await until(() => resyncs >= 1, 'the resync after the listen connection came back');

      const second = (await peer.send({ cmd: 'tokens', runId, stepId: 'D1', count: 300, pauseEvery: 50 })) as { text: string };
      await until(() => runBus().snapshot(runId).steps.D1?.text === first.text + second.text, 'the tokens after the reconnect');
      const last = received.filter((e) => e.type === 'step-partial').at(-1);
      expect(last).toEqual({ type: 'step-partial', runId, stepId: 'D1', text: first.text + second.text, output: { text: first.text + second.text } });
    });

    it('recovers the text so far of tokens published while its listen connection was down', async () => {
      const runId = `relay-gap-${randomBytes(4).toString('hex')}`;
      let resyncs = 0;
      runBus().subscribe(runId, () => {}, { onResync: () => resyncs++ });
      await peer.send({ cmd: 'publish', event: { type: 'run-started', runId, at, steps } });
      await peer.send({ cmd: 'publish', event: { type: 'step-started', runId, stepId: 'D1', at, attempt: 1 } });
      await until(() => runBus().snapshot(runId).steps.D1?.status === 'running', 'the step to start on this side');

      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name like 'crosscheck-relay listen test-%'`, [name]);
      const published = (await peer.send({ cmd: 'tokens', runId, stepId: 'D1', count: 600, pauseEvery: 40 })) as { text: string };
      // Whatever was lost comes back with the publisher's state, and viewers resync on it.
      await until(() => runBus().snapshot(runId).steps.D1?.text === published.text && resyncs >= 2, 'the state after the gap');
    });

    it('keeps one relay per process until it is stopped', async () => {
      await withDatabaseUrl(url, async () => {
        const first = ensureRunRelay({ instanceId: 'ensured' })!;
        expect(ensureRunRelay()).toBe(first);
        await first.ready;
        await first.stop();
        const second = ensureRunRelay()!;
        expect(second).not.toBe(first);
        await second.stop();
      });
    });

    it('gives a process that starts mid-run the text so far, from a publisher that receives no events itself', async () => {
      const runId = `relay-late-${randomBytes(4).toString('hex')}`;
      const busA = new RunBus();
      const busB = new RunBus();
      const a = startRunRelay({ connectionString: url, instanceId: 'a', bus: busA, maxFrameBytes: 300, receiveEvents: false });
      await a.ready;
      busA.publish({ type: 'run-started', runId, at, steps });
      busA.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
      busA.publish({ type: 'step-partial', runId, stepId: 'D1', text: scriptedText(5, 2000), output: { text: scriptedText(5, 2000) } });
      await a.flush();

      const b = startRunRelay({ connectionString: url, instanceId: 'b', bus: busB });
      try {
        await b.ready;
        busA.publish({ type: 'step-partial', runId, stepId: 'D1', text: `${scriptedText(5, 2000)}끝`, output: { text: `${scriptedText(5, 2000)}끝` } });
        await until(() => busB.snapshot(runId).steps.D1?.text === `${scriptedText(5, 2000)}끝`, 'the late process to hold the whole text');
        // The same state; each bus counts its own versions.
        expect({ ...busB.snapshot(runId), version: 0 }).toEqual({ ...busA.snapshot(runId), version: 0 });
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
  });
}
