// `npm run db:migrate` / `npm run db:seed` (tsx scripts/db.ts migrate|seed), against the
// database the environment configures: PostgreSQL by DATABASE_URL, else the embedded folder.
// Failures are the operator's to fix (a locked folder, a bad setting), so they print as one
// plain sentence and exit 1 rather than as a stack trace.
import { closeDb } from '@/lib/db/client';
import { openAppDatabase } from '@/lib/demo/app-database';
import { seedDemo } from '@/lib/demo/seed';
import { demoEnabled } from '@/lib/env';
import { describeError } from './lib/describe-error';

const USAGE = 'Usage: tsx scripts/db.ts migrate|seed';

async function migrate() {
  // Opening the database applies pending migrations (and seeds a brand-new embedded folder).
  const { kind, location } = await openAppDatabase();
  console.log(`Database migrated: ${kind} at ${location}.`);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

async function seed() {
  // Opened as the app opens it, so a brand-new embedded folder is seeded (and says so) first.
  const { db, kind, location } = await openAppDatabase();
  const counts = await seedDemo(db, { accounts: demoEnabled() });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    total === 0
      ? `Demo data already present in ${kind} at ${location}: nothing to add.`
      : `Seeded ${kind} at ${location}: added ${plural(counts.companies, 'company', 'companies')}, ` +
          `${plural(counts.evidence, 'evidence item')}, ${plural(counts.documents, 'document')}, ${plural(counts.chunks, 'chunk')}, ` +
          `${plural(counts.users, 'user')}, ${plural(counts.cases, 'case')}.`,
  );
}

const commands: Record<string, () => Promise<void>> = { migrate, seed };
const command = process.argv[2] ?? '';

if (!commands[command]) {
  console.error(USAGE);
  process.exitCode = 1;
} else {
  try {
    await commands[command]();
  } catch (err) {
    console.error(`db ${command} failed: ${describeError(err)}`);
    process.exitCode = 1;
  } finally {
    await closeDb().catch(() => {});
  }
}
