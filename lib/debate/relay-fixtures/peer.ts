// A second process for the relay tests: its own run bus and relay, driven by JSON lines on stdin
// ({ id, cmd, ... }) and answering one JSON line per command on stdout ({ id, ok, ... }). Run with
// `node node_modules/tsx/dist/cli.mjs lib/debate/relay-fixtures/peer.ts`.
import readline from 'node:readline';
import { runBus } from '@/lib/debate/bus';
import { startRunRelay, type RunRelay } from '@/lib/debate/relay';
import type { RunEvent } from '@/lib/domain/protocol';

const at = '2026-01-01T00:00:00.000Z';
const SYLLABLES = '가나다라마바사아자차카타파하신용평가부채현금흐름';

/** Deterministic text: Korean syllables with some ASCII, so UTF-8 sizes vary by character. */
export function scriptedText(seed: number, chars: number): string {
  let out = '';
  let x = seed;
  while (out.length < chars) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += x % 7 === 0 ? ' ' : x % 11 === 0 ? String(x % 10) : SYLLABLES[x % SYLLABLES.length];
  }
  return out;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

let relay: RunRelay | null = null;
const bus = runBus();

type Command =
  | { id: number; cmd: 'start'; url: string }
  | { id: number; cmd: 'script'; runId: string; tokens: number; bigChars: number }
  | { id: number; cmd: 'tokens'; runId: string; stepId: string; count: number; pauseEvery: number }
  | { id: number; cmd: 'publish'; event: RunEvent }
  | { id: number; cmd: 'ack-on'; watch: string; ack: string }
  | { id: number; cmd: 'stop' };

/** The text each step has written so far, by `runId stepId`: a later `tokens` command goes on from it. */
const written = new Map<string, string>();

/** A step writing `count` more tokens, each published as the step's answer so far (a turn's prose). */
async function publishTokens(runId: string, stepId: string, count: number, pauseEvery: number, seed: number) {
  const key = `${runId} ${stepId}`;
  let text = written.get(key) ?? '';
  let added = '';
  for (let i = 0; i < count; i++) {
    const token = scriptedText(seed + i, 1 + (i % 4));
    text += token;
    added += token;
    bus.publish({ type: 'step-partial', runId, stepId, text, output: { text } });
    if (i % pauseEvery === pauseEvery - 1) await pause();
  }
  written.set(key, text);
  return added;
}

async function run(command: Command): Promise<Record<string, unknown>> {
  switch (command.cmd) {
    case 'start':
      relay = startRunRelay({ connectionString: command.url, instanceId: 'peer' });
      await relay.ready;
      return { origin: relay.origin };
    case 'script': {
      // The run this process publishes, as the engine would: own subscribers count deliveries.
      const { runId } = command;
      let delivered = 0;
      const { unsubscribe } = bus.subscribe(runId, () => delivered++);
      const events: RunEvent[] = [];
      const publish = (event: RunEvent) => {
        events.push(event);
        bus.publish(event);
      };
      const steps = ['D1', 'D2'].map((id) => ({ id, agent: 'A1', team: 'affirmative' as const, act: 'constructive' as const, context: [] }));
      publish({ type: 'run-started', runId, at, steps });
      for (const [n, stepId] of ['D1', 'D2'].entries()) {
        publish({ type: 'step-started', runId, stepId, at, attempt: 1 });
        let text = '';
        for (let i = 0; i < command.tokens; i++) {
          const token = scriptedText(n * 100_000 + i, 1 + (i % 4));
          text += token;
          // The answer so far every ten tokens, as a throttled live step sends it.
          if (i % 10 === 9) publish({ type: 'step-partial', runId, stepId, text, output: { text } });
          if (i % 40 === 39) await pause();
        }
        const long = stepId === 'D1' ? scriptedText(7, command.bigChars) : text;
        publish({ type: 'step-done', runId, stepId, at, text: long, output: { summary: long, claims: [{ text: text.slice(0, 50), factors: ['평판'] }] }, usage: { promptTokens: 1, completionTokens: 2, costUsd: 0.5 } });
      }
      publish({ type: 'run-finished', runId, at, status: 'succeeded' });
      await relay!.flush();
      unsubscribe();
      return { events, delivered };
    }
    case 'tokens': {
      const text = await publishTokens(command.runId, command.stepId, command.count, command.pauseEvery, 31);
      await relay!.flush();
      return { text, snapshot: bus.snapshot(command.runId) };
    }
    case 'publish':
      bus.publish(command.event);
      await relay!.flush();
      return {};
    case 'ack-on':
      bus.subscribe(command.watch, () => bus.publish({ type: 'report-ready', runId: command.ack, at }));
      return {};
    case 'stop':
      await relay?.stop();
      setImmediate(() => process.exit(0));
      return {};
  }
}

const lines = readline.createInterface({ input: process.stdin });
// One command at a time, in order.
let chain = Promise.resolve();
lines.on('line', (line) => {
  const command = JSON.parse(line) as Command;
  chain = chain.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify({ id: command.id, ok: true, ...(await run(command)) })}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ id: command.id, ok: false, error: (err as Error).message })}\n`);
    }
  });
});
