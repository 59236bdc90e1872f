// A limiter in another OS process, for lib/llm/rate-limit.test.ts: one reservation against the
// PostgreSQL database the test names, on a clock that starts where the test says and moves
// only when the limiter sleeps. Prints the reservation as JSON.
import { openDatabase } from '@/lib/db/client';
import { createSharedRateLimiter } from '@/lib/llm/rate-limit';

async function main() {
  const { url, key, rpm, now } = JSON.parse(process.argv[2]) as { url: string; key: string; rpm: number; now: number };
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  let t = now;
  const limiter = createSharedRateLimiter({
    db: handle.db,
    clock: { now: () => t, sleep: async (ms) => void (t += ms) },
    onWait: () => {},
  });
  try {
    const reservation = await limiter.reserve({ key, limits: { rpm }, tokens: 10, signal: new AbortController().signal });
    process.stdout.write(JSON.stringify(reservation));
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
