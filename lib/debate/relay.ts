// Streaming across instances (issue 7): with PostgreSQL, every process's run bus is linked to the
// others through LISTEN/NOTIFY on one channel, so a viewer on any app instance follows a run that
// a worker elsewhere executes, live and in order, and a late viewer still gets the answers so far.
//
// Wire. Messages are JSON; a packet is a JSON array of consecutive messages, and a frame is
// `origin|packetId|part|total|piece`, under NOTIFY's 8000-byte payload limit: small messages
// share a frame, a large step-done travels in parts the receiver joins again. Each process has
// one connection that sends (serially, so its frames arrive in the order it sent them: one
// session, commit order) and one that listens. Messages:
//   e      a run event, with its stream (one run's events from one process) and sequence number
//   sync   "send the state of your live runs" (all, or the listed ones)
//   state  a live run's answers so far as of a sequence number: the answer to sync
//
// Outages. Frames a lost send connection did not confirm are sent again after it reconnects, and
// receivers drop the duplicates by sequence number. A receiver that sees a gap in a stream asks
// for that run's state. A listen connection that comes back may have missed anything: it asks
// every process for its live runs' state and calls bus.resync(), on which the SSE route sends
// its viewers a fresh snapshot from the database; when a run's state arrives the run is resynced
// again, now with the exact answers so far.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { runBus, type RunBus, type RunSnapshot } from '@/lib/debate/bus';
import type { RunEvent } from '@/lib/domain/protocol';
import { env, isEmbedded } from '@/lib/env';
import { log, type Logger } from '@/lib/ops/log';

export const RELAY_CHANNEL = 'crosscheck_run_events';
/** PostgreSQL rejects payloads of 8000 bytes or more; the header is counted in. */
export const MAX_FRAME_BYTES = 7_800;
const BATCH_BYTES = 256 * 1024;
const BATCH_FRAMES = 500;
/** Messages waiting for a lost connection beyond this are dropped (receivers then ask for state). */
const MAX_QUEUED_CHARS = 64 * 1024 * 1024;
const SYNC_RETRY_MS = 2_000;
const FORGET_AFTER_MS = 10 * 60_000;
const STOP_TIMEOUT_MS = 5_000;
/** A connection that does not answer within this is taken for lost; the idle listener is probed as often. */
const QUERY_TIMEOUT_MS = 15_000;
const PROBE_EVERY_MS = 30_000;

type Message =
  | { k: 'e'; s: number; n: number; e: RunEvent }
  | { k: 'sync'; runs?: string[] }
  | { k: 'state'; s: number; n: number; r: string; steps: RunSnapshot['steps'] };

export type RelayOptions = {
  connectionString: string;
  /** Names this process in logs and pg_stat_activity (application_name); a random suffix keeps it unique. */
  instanceId?: string;
  /**
   * Whether other processes' run events reach this process's bus (default true). A worker that
   * serves no viewers passes false: it still answers state requests for the runs it executes.
   */
  receiveEvents?: boolean;
  /** For tests: a bus other than the process's. */
  bus?: RunBus;
  /** For tests: a smaller frame size exercises splitting with less data. */
  maxFrameBytes?: number;
};

export type RunRelay = {
  /** Unique per process; frames carry it so a process ignores its own notifications. */
  origin: string;
  /** Resolves once both connections are up the first time. */
  ready: Promise<void>;
  /** Resolves once everything published so far has been sent. */
  flush(): Promise<void>;
  /** Sends what is pending (waiting up to 5 s), then closes both connections. */
  stop(): Promise<void>;
};

/** Splits a JSON text into frames under maxBytes, never inside a UTF-8 character. */
export function encodeFrames(origin: string, packetId: number, json: string, maxBytes: number): string[] {
  const single = `${origin}|${packetId}|0|1|${json}`;
  if (Buffer.byteLength(single) <= maxBytes) return [single];
  const budget = maxBytes - Buffer.byteLength(`${origin}|${packetId}|999999|999999|`);
  if (budget < 4) throw new Error(`A relay frame of ${maxBytes} bytes leaves no room for data.`);
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < json.length; ) {
    const cp = json.codePointAt(i)!;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > budget) {
      pieces.push(json.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
    i += cp > 0xffff ? 2 : 1;
  }
  pieces.push(json.slice(start));
  return pieces.map((piece, part) => `${origin}|${packetId}|${part}|${pieces.length}|${piece}`);
}

type Frame = { origin: string; packetId: number; part: number; total: number; piece: string };

export function parseFrame(payload: string): Frame | null {
  const fields: string[] = [];
  let from = 0;
  for (let f = 0; f < 4; f++) {
    const bar = payload.indexOf('|', from);
    if (bar < 0) return null;
    fields.push(payload.slice(from, bar));
    from = bar + 1;
  }
  const [origin, packetId, part, total] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  if (!origin || !Number.isInteger(packetId) || !Number.isInteger(part) || !Number.isInteger(total) || part >= total) return null;
  return { origin, packetId, part, total, piece: payload.slice(from) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

function backoffMs(attempt: number) {
  return Math.round(Math.min(5_000, 100 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4));
}

type Role = 'notify' | 'listen';

class Relay implements RunRelay {
  readonly origin: string;
  readonly ready: Promise<void>;
  private readonly bus: RunBus;
  private readonly log: Logger;
  private readonly maxFrameBytes: number;
  private readonly unhook: () => void;
  private readonly sweeper: NodeJS.Timeout;
  private readonly probe: NodeJS.Timeout;
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private clients: Record<Role, pg.Client | null> = { notify: null, listen: null };

  // Sending: messages wait in the outbox; a batch of frames stays in flight until the server
  // accepted it, and is sent again as it is after a reconnect.
  private outbox: { json: string; bytes: number }[] = [];
  private outboxChars = 0;
  private inflight: string[] | null = null;
  private sending = false;
  private idle: (() => void)[] = [];
  private packetId = 0;
  private droppedSince: number | null = null;
  // Runs this process publishes: their stream and last sequence number.
  private nextStream = 0;
  private local = new Map<string, { s: number; n: number; seen: number }>();

  // Receiving: parts of a split message by origin, streams by `origin:stream`, runs awaiting state.
  private partial = new Map<string, { packetId: number; total: number; pieces: string[] }>();
  private streams = new Map<string, { runId: string; expected: number; seen: number }>();
  private outOfSync = new Map<string, number>();

  constructor(private readonly options: RelayOptions) {
    const name = (options.instanceId ?? `${os.hostname()}-${process.pid}`).replace(/[^\w.-]/g, '_').slice(0, 32);
    this.origin = `${name}-${randomBytes(3).toString('hex')}`;
    this.log = log.child({ component: 'relay', origin: this.origin });
    this.bus = options.bus ?? runBus();
    this.maxFrameBytes = Math.min(options.maxFrameBytes ?? MAX_FRAME_BYTES, MAX_FRAME_BYTES);
    this.unhook = this.bus.onLocalPublish((event) => this.onLocalPublish(event));
    this.sweeper = setInterval(() => this.forgetIdle(), 60_000);
    this.sweeper.unref?.();
    // The listen connection only receives: without a query now and then, a dead peer goes unnoticed.
    this.probe = setInterval(() => {
      const client = this.clients.listen;
      client?.query('select 1').catch((err: Error) => this.lost('listen', client, err));
    }, PROBE_EVERY_MS);
    this.probe.unref?.();
    this.ready = Promise.all([this.connect('notify', false), this.connect('listen', false)]).then(() => {});
  }

  flush(): Promise<void> {
    if (this.drained()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  stop(): Promise<void> {
    return (this.stopping ??= this.shutdown());
  }

  private async shutdown() {
    this.unhook();
    clearInterval(this.sweeper);
    clearInterval(this.probe);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS)))]);
    clearTimeout(timer);
    if (!this.drained()) this.log.warn('stopping with run event messages unsent', { messages: this.outbox.length });
    this.stopped = true;
    const clients = [this.clients.notify, this.clients.listen];
    this.clients = { notify: null, listen: null };
    await Promise.all(clients.map((c) => c?.end().catch(() => {})));
  }

  // ---- local events out ----

  private onLocalPublish(event: RunEvent) {
    this.sendEvent(event);
    if (event.type === 'run-finished') this.local.delete(event.runId);
  }

  private sendEvent(event: RunEvent) {
    let run = this.local.get(event.runId);
    if (!run) this.local.set(event.runId, (run = { s: ++this.nextStream, n: 0, seen: 0 }));
    run.n += 1;
    run.seen = Date.now();
    this.enqueue({ k: 'e', s: run.s, n: run.n, e: event });
  }

  private answerSync(runs: string[] | undefined) {
    for (const runId of this.local.keys()) {
      if (runs && !runs.includes(runId)) continue;
      const run = this.local.get(runId)!;
      this.enqueue({ k: 'state', s: run.s, n: run.n, r: runId, steps: this.bus.snapshot(runId).steps });
    }
  }

  private enqueue(message: Message) {
    if (this.stopped) return;
    const json = JSON.stringify(message);
    if (this.outboxChars + json.length > MAX_QUEUED_CHARS) {
      // Receivers see the gap in the sequence numbers and ask for the run's state.
      if (this.droppedSince === null) this.log.error('the send queue is full while PostgreSQL is unreachable: dropping run events until it drains');
      this.droppedSince ??= Date.now();
      return;
    }
    this.outbox.push({ json, bytes: Buffer.byteLength(json) });
    this.outboxChars += json.length;
    void this.drain();
  }

  private drained() {
    return !this.outbox.length && !this.inflight && !this.sending;
  }

  /** The next frames to send: messages packed into as few frames as fit, in order. */
  private nextBatch(): string[] {
    const frames: string[] = [];
    const room = this.maxFrameBytes - Buffer.byteLength(`${this.origin}|${this.packetId + 1_000_000}|0|1|`);
    let batchBytes = 0;
    let packet: string[] = [];
    let packetBytes = 2;
    const closePacket = () => {
      if (!packet.length) return;
      for (const frame of encodeFrames(this.origin, ++this.packetId, `[${packet.join(',')}]`, this.maxFrameBytes)) frames.push(frame);
      batchBytes += packetBytes;
      packet = [];
      packetBytes = 2;
    };
    let taken = 0;
    while (taken < this.outbox.length && batchBytes + packetBytes < BATCH_BYTES && frames.length < BATCH_FRAMES) {
      const { json, bytes } = this.outbox[taken];
      if (packet.length && packetBytes + 1 + bytes > room) closePacket();
      packetBytes += bytes + (packet.length ? 1 : 0);
      packet.push(json);
      this.outboxChars -= json.length;
      taken++;
    }
    closePacket();
    this.outbox.splice(0, taken);
    return frames;
  }

  private async drain() {
    if (this.sending) return;
    this.sending = true;
    try {
      while ((this.inflight || this.outbox.length) && this.clients.notify && !this.stopped) {
        const client = this.clients.notify;
        this.inflight ??= this.nextBatch();
        // One simple query: its statements run in order in one transaction. Every frame differs
        // (origin, packetId, part), so PostgreSQL's folding of equal notifications never applies.
        const sql = this.inflight.map((f) => `select pg_notify('${RELAY_CHANNEL}', ${client.escapeLiteral(f)})`).join(';\n');
        try {
          await client.query(sql);
        } catch (err) {
          this.lost('notify', client, err as Error);
          return;
        }
        this.inflight = null;
      }
      if (this.droppedSince !== null && !this.outbox.length) {
        this.log.warn('the send queue drained; events published meanwhile were partly dropped', { droppedSince: new Date(this.droppedSince) });
        this.droppedSince = null;
      }
    } finally {
      this.sending = false;
      if (this.drained()) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  // ---- connections ----

  /** Connects (retrying with backoff until it succeeds or the relay stops). */
  private async connect(role: Role, reconnecting: boolean): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      if (reconnecting || attempt > 1) await sleep(backoffMs(attempt));
      if (this.stopped) return;
      const client = new pg.Client({
        connectionString: this.options.connectionString,
        application_name: `crosscheck-relay ${role} ${this.origin}`.slice(0, 63),
        keepAlive: true,
        query_timeout: QUERY_TIMEOUT_MS,
        connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      });
      client.on('error', (err) => this.lost(role, client, err));
      client.on('end', () => this.lost(role, client, new Error('the connection ended')));
      try {
        await client.connect();
        if (role === 'listen') {
          client.on('notification', (n) => this.onNotification(n));
          await client.query(`listen ${RELAY_CHANNEL}`);
        }
      } catch (err) {
        client.removeAllListeners('end');
        client.end().catch(() => {});
        this.log.warn('could not open a connection', { role, attempt, err });
        continue;
      }
      if (this.stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.clients[role] = client;
      if (reconnecting || attempt > 1) this.log.info('connection back', { role, attempt });
      if (role === 'notify') void this.drain();
      else if (reconnecting) this.afterListenGap();
      return;
    }
  }

  private lost(role: Role, client: pg.Client, err: Error) {
    if (this.clients[role] !== client) return;
    this.clients[role] = null;
    client.end().catch(() => {});
    if (this.stopped) return;
    this.log.warn('lost a connection; reconnecting', { role, err });
    void this.connect(role, true);
  }

  // ---- other processes' events in ----

  private onNotification(notification: pg.Notification) {
    if (notification.channel !== RELAY_CHANNEL || !notification.payload) return;
    const frame = parseFrame(notification.payload);
    if (!frame || frame.origin === this.origin) return;
    let json: string;
    if (frame.total === 1) {
      this.partial.delete(frame.origin);
      json = frame.piece;
    } else {
      let partial = this.partial.get(frame.origin);
      if (frame.part === 0) this.partial.set(frame.origin, (partial = { packetId: frame.packetId, total: frame.total, pieces: [] }));
      if (!partial || partial.packetId !== frame.packetId || partial.pieces.length !== frame.part) {
        // A part went missing; the sequence numbers will show which run needs its state.
        this.partial.delete(frame.origin);
        return;
      }
      partial.pieces.push(frame.piece);
      if (partial.pieces.length < partial.total) return;
      this.partial.delete(frame.origin);
      json = partial.pieces.join('');
    }
    let messages: Message[];
    try {
      messages = JSON.parse(json) as Message[];
    } catch (err) {
      this.log.error('dropped an unreadable packet', { peer: frame.origin, err });
      return;
    }
    for (const message of messages) this.handle(frame.origin, message);
  }

  private handle(origin: string, message: Message) {
    if (message.k === 'sync') return this.answerSync(message.runs);
    if (this.options.receiveEvents === false) return;
    const runId = message.k === 'e' ? message.e.runId : message.r;
    const key = `${origin}:${message.s}`;
    let stream = this.streams.get(key);
    const fresh = !stream;
    if (!stream) this.streams.set(key, (stream = { runId, expected: 1, seen: 0 }));
    stream.seen = Date.now();

    if (message.k === 'state') {
      // Older than events already applied: a frame sent again after a reconnect.
      if (message.n < stream.expected - 1) return;
      this.bus.restore(runId, message.steps);
      stream.expected = message.n + 1;
      if (this.outOfSync.delete(runId)) this.bus.resync([runId]);
      return;
    }
    if (message.n < stream.expected) return; // a duplicate
    if (message.n > stream.expected) {
      // A stream first seen mid-run (this process started late) or a real gap.
      if (!fresh) this.log.warn('run events missing; asking for the run state', { runId, peer: origin, missing: message.n - stream.expected });
      this.askState(runId);
    }
    stream.expected = message.n + 1;
    this.bus.receive(message.e);
    if (message.e.type === 'run-finished') {
      this.streams.delete(key);
      this.outOfSync.delete(runId);
    }
  }

  private askState(runId: string) {
    const asked = this.outOfSync.get(runId);
    if (asked !== undefined && Date.now() - asked < SYNC_RETRY_MS) return;
    this.outOfSync.set(runId, Date.now());
    this.enqueue({ k: 'sync', runs: [runId] });
  }

  /** The listen connection was down: anything may have been missed. */
  private afterListenGap() {
    this.partial.clear();
    if (this.options.receiveEvents === false) return;
    const now = Date.now();
    for (const stream of this.streams.values()) this.outOfSync.set(stream.runId, now);
    this.enqueue({ k: 'sync' });
    this.log.info('asked for the state of live runs and resynced local viewers after the listen gap');
    this.bus.resync();
  }

  private forgetIdle() {
    const before = Date.now() - FORGET_AFTER_MS;
    for (const [key, s] of this.streams) if (s.seen < before) this.streams.delete(key);
    // A run that goes quiet for long continues as a new stream: receivers take that as a new start.
    for (const [runId, r] of this.local) if (r.seen < before) this.local.delete(runId);
    for (const [runId, at] of this.outOfSync) if (at < before) this.outOfSync.delete(runId);
  }
}

export function startRunRelay(options: RelayOptions): RunRelay {
  return new Relay(options);
}

const globalForRelay = globalThis as typeof globalThis & { __crosscheckRunRelay?: RunRelay };

/**
 * The process's relay when the database is PostgreSQL, started on first call; null on the
 * embedded database, where one process is the whole app. Call it from every process that runs
 * or shows runs (app startup, worker startup).
 */
export function ensureRunRelay(options: Pick<RelayOptions, 'instanceId' | 'receiveEvents'> = {}): RunRelay | null {
  const e = env();
  if (isEmbedded(e)) return null;
  if (!globalForRelay.__crosscheckRunRelay) {
    const relay = startRunRelay({ connectionString: e.DATABASE_URL!, ...options });
    // Once stopped (a worker's shutdown), the next call starts a new one.
    const ensured: RunRelay = {
      origin: relay.origin,
      ready: relay.ready,
      flush: () => relay.flush(),
      stop: () => {
        if (globalForRelay.__crosscheckRunRelay === ensured) globalForRelay.__crosscheckRunRelay = undefined;
        return relay.stop();
      },
    };
    globalForRelay.__crosscheckRunRelay = ensured;
  }
  return globalForRelay.__crosscheckRunRelay;
}
