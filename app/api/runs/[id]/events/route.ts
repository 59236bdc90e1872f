// Server-sent events for one run. On every (re)connect: a snapshot (the database's view with
// the text streamed so far), then the live events from the bus, heartbeats in between, and the
// end of the stream after run-finished. Any viewer who may read the run gets the same stream.
// The run may execute in another process (a worker): the relay (lib/debate/relay.ts) feeds its
// events into this process's bus, and when events may have been lost on the way the bus asks
// for a resync, answered here with a fresh snapshot in the same stream. Opening the stream is an
// audited read of the transcript (`run.view`), unless the same user's page load or an earlier
// connection recorded one moments ago: reconnects add no entries. The stream checks its session
// every few seconds and ends when it is revoked, the user is disabled or loses the run
// (lib/auth/session-watch.ts).
import { assertRunAccess } from '@/lib/auth/run-access';
import { route } from '@/lib/auth/route';
import { SESSION_CHECK_MS, sessionHolds, sessionOfRequest, watchSession } from '@/lib/auth/session-watch';
import { AppError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { recordRunView } from '@/lib/db/queries/audit';
import { runBus, type RunSnapshot } from '@/lib/debate/bus';
import { evidenceForOutput, evidenceRefsFor } from '@/lib/report/live-state';
import { snapshotMessage } from '@/lib/report/live-snapshot';
import { isTerminal, type WireMessage } from '@/lib/report/run-state';
import type { RunEvent } from '@/lib/domain/protocol';
import { log } from '@/lib/ops/log';

export const dynamic = 'force-dynamic';

const HEARTBEAT_MS = 15_000;

export const GET = route<{ params: Promise<{ id: string }> }>('runs:read', async (request, user, { params }) => {
  const { id } = await params;
  await assertRunAccess(user, id, 'read');
  const db = await getDb();
  await recordRunView({ db, actorId: user.id, runId: id, via: 'stream' });
  const session = await sessionOfRequest(request);
  // Losing the run (not found or not readable for them any more) ends the stream like a revoked session.
  const mayStillRead = (now: typeof user) =>
    assertRunAccess(now, id, 'read').then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError) return false;
        throw err;
      },
    );
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      // Messages go out in the order events happened, even when one needs a lookup first, and
      // none before the snapshot: the queue opens once the snapshot is sent.
      let openQueue = () => {};
      let queue = new Promise<void>((resolve) => (openQueue = resolve));
      const write = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      };
      const send = (message: WireMessage) => write(`data: ${JSON.stringify(message)}\n\n`);
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      // A failed lookup ends the stream; the client's EventSource reconnects and starts afresh.
      const fail = (what: string) => (err: unknown) => {
        log.error(`could not ${what}`, { component: 'events', runId: id, err });
        close();
      };
      // Viewers asking at the same point of the run share one read and one encoded message.
      const sendSnapshot = async (live: RunSnapshot) => {
        const snapshot = await snapshotMessage({ db, runId: id, live });
        if (!closed) controller.enqueue(snapshot.bytes);
        if (isTerminal(snapshot.status)) close();
      };
      const forward = (event: RunEvent) => {
        queue = queue
          .then(async () => {
            if (closed) return;
            if (event.type === 'step-done') send({ ...event, evidence: await evidenceForOutput({ db, runId: id, output: event.output }) });
            // The red flags' items, so the panel at the top of the run page links them at once.
            else if (event.type === 'run-started' && event.redFlags?.length)
              send({ ...event, evidence: await evidenceRefsFor({ db, ids: event.redFlags.map((f) => f.evidenceId), webEvidence: [] }) });
            else send(event);
            if (event.type === 'run-finished') close();
          })
          .catch(fail('send an event'));
      };
      // The bus's text is taken now, at this point among the events; the database is read in turn.
      const resync = () => {
        const live = runBus().snapshot(id);
        queue = queue.then(() => (closed ? undefined : sendSnapshot(live))).catch(fail('load a fresh snapshot'));
      };

      // Subscribe before reading the database: nothing that happens while it loads is missed,
      // and events it already reflects reduce to the same state on the client.
      const { snapshot, unsubscribe } = runBus().subscribe(id, forward, { onResync: resync });
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      const stopWatch = watchSession({
        intervalMs: SESSION_CHECK_MS,
        holds: () => sessionHolds({ db, session, permission: 'runs:read', stillAllowed: mayStillRead }),
        end: close,
      });
      cleanup = () => {
        clearInterval(heartbeat);
        stopWatch();
        unsubscribe();
      };
      request.signal.addEventListener('abort', close);

      write('retry: 2000\n\n');
      sendSnapshot(snapshot).catch(fail('load the snapshot')).finally(openQueue);
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
});
