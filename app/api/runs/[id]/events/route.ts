// Server-sent events for one run: its event log (lib/debate/event-log.ts), followed live. A
// viewer who comes with a position in the log (the page's `?after=`, or the browser's
// Last-Event-ID when it reconnects) gets every event numbered after it; one who comes without
// gets a snapshot first (the run as the database has it, with the answers so far) and the events
// after it. Each message carries its number as its SSE id, heartbeats go in between, and the
// stream ends after run-finished. Any viewer who may read the run gets the same stream, whichever
// process executes the run: the log is in the database. Opening the stream is an audited read
// of the transcript (`run.view`), unless the same user's page load or an earlier connection
// recorded one moments ago: reconnects add no entries. The stream checks its session every few
// seconds and ends when it is revoked, the user is disabled or loses the run
// (lib/auth/session-watch.ts).
import { assertRunAccess } from '@/lib/auth/run-access';
import { route } from '@/lib/auth/route';
import { SESSION_CHECK_MS, sessionHolds, sessionOfRequest, watchSession } from '@/lib/auth/session-watch';
import { AppError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { recordRunView } from '@/lib/db/queries/audit';
import { getRun } from '@/lib/db/queries/runs';
import { logTail } from '@/lib/debate/log-tail';
import type { LoggedEvent } from '@/lib/debate/event-log';
import { evidenceForOutput, evidenceRefsFor } from '@/lib/report/live-state';
import { snapshotMessage } from '@/lib/report/live-snapshot';
import { isTerminal, type WireMessage } from '@/lib/report/run-state';
import { log } from '@/lib/ops/log';

export const dynamic = 'force-dynamic';

const HEARTBEAT_MS = 15_000;

/** The viewer's position in the log: Last-Event-ID on a reconnect, else `?after=`; null without one. */
function positionOf(request: Request): number | null {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after');
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  return Number(raw);
}

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
  // A position past the log's end (not one this server gave) is no position: start from a snapshot.
  // This read of the run also numbers the snapshot, which then reads the run once more, with the
  // rest of it.
  const run = await getRun({ db, id });
  const asked = positionOf(request);
  const position = asked !== null && run && asked <= run.eventSeq ? asked : null;
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      // Messages go out in the order of the log, even when one needs a lookup first.
      let queue = Promise.resolve();
      const write = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      };
      const send = (message: WireMessage, seq: number) => write(`id: ${seq}\ndata: ${JSON.stringify(message)}\n\n`);
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      // A failed lookup ends the stream; the browser reconnects from the last number it got.
      const fail = (what: string) => (err: unknown) => {
        log.error(`could not ${what}`, { component: 'events', runId: id, err });
        close();
      };
      const forward = ({ seq, event }: LoggedEvent) => {
        queue = queue
          .then(async () => {
            if (closed) return;
            if (event.type === 'step-done') send({ ...event, seq, evidence: await evidenceForOutput({ db, runId: id, output: event.output }) }, seq);
            // The red flags' items, so the panel at the top of the run page links them at once.
            else if ((event.type === 'run-started' || event.type === 'run-finished') && event.redFlags?.length)
              send({ ...event, seq, evidence: await evidenceRefsFor({ db, ids: event.redFlags.map((f) => f.evidenceId), webEvidence: [] }) }, seq);
            else send({ ...event, seq }, seq);
            if (event.type === 'run-finished') close();
          })
          .catch(fail('send an event'));
      };
      let unfollow = () => {};
      const followFrom = (after: number) => {
        if (closed) return;
        unfollow = logTail(getDb).follow(id, after, (events) => events.forEach(forward), fail('read the run log'));
      };

      const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      const stopWatch = watchSession({
        intervalMs: SESSION_CHECK_MS,
        holds: () => sessionHolds({ db, session, permission: 'runs:read', stillAllowed: mayStillRead }),
        end: close,
      });
      cleanup = () => {
        clearInterval(heartbeat);
        stopWatch();
        unfollow();
      };
      request.signal.addEventListener('abort', close);

      write('retry: 2000\n\n');
      if (position !== null) {
        // A finished run whose viewer has everything: nothing more will come.
        if (run && isTerminal(run.status) && position >= run.eventSeq) close();
        else followFrom(position);
      } else {
        // Viewers asking at the same point of the run share one read and one encoded message.
        queue = snapshotMessage({ db, runId: id, seq: run?.eventSeq })
          .then((snapshot) => {
            if (closed) return;
            controller.enqueue(snapshot.bytes);
            if (isTerminal(snapshot.status)) close();
            else followFrom(snapshot.seq);
          })
          .catch(fail('load the snapshot'));
      }
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
