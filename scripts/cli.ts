// `npm run cli -- <command>`: operator commands against the configured database.
import { createInterface } from 'node:readline/promises';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { createAccount } from '@/lib/auth/accounts';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/password';
import { closeDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { setSoleProprietor } from '@/lib/db/queries/oversight';
import { appDb } from '@/lib/demo/app-database';
import { ROLES, type Role } from '@/lib/domain/vocabulary';
import { registerBatch } from './commands/batch';
import { registerCaseFile } from './commands/case-file';
import { registerDebate } from './commands/debate';
import { registerEval } from './commands/eval';
import { registerImport } from './commands/import';
import { registerJudge } from './commands/judge';
import { registerPurge } from './commands/purge';
import { registerRetrieve } from './commands/retrieve';
import { registerStability } from './commands/stability';
import { registerStats } from './commands/stats';
import { describeError } from './lib/describe-error';

function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError(`Choose one of: ${ROLES.join(', ')}.`);
  return value as Role;
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.CROSSCHECK_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new Error('Set CROSSCHECK_PASSWORD, or run in a terminal to be asked for the password.');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question('Password: ');
  } finally {
    rl.close();
  }
}

const program = new Command('crosscheck').description('Crosscheck operator commands').showHelpAfterError();

program
  .command('create-user')
  .description('create an account (e.g. the first administrator on PostgreSQL)')
  .requiredOption('--email <email>', 'sign-in email')
  .requiredOption('--name <name>', 'display name')
  .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, parseRole)
  .action(async (options: { email: string; name: string; role: Role }) => {
    const email = z.email().safeParse(options.email.trim().toLowerCase());
    if (!email.success) throw new Error(`"${options.email}" is not a valid email address.`);
    const password = await readPassword();
    if (password.length < PASSWORD_MIN_LENGTH) throw new Error(`The password needs at least ${PASSWORD_MIN_LENGTH} characters.`);
    const user = await createAccount({ db: await appDb(), actorId: null, email: email.data, name: options.name.trim(), role: options.role, password });
    console.log(`Created ${user.role} ${user.email}.`);
  });

program
  .command('sole-proprietor')
  .description('mark a borrower as a sole proprietor, an individual in business: its cases need two agreeing committee votes (docs/oversight.md)')
  .requiredOption('--company <id>', 'company id')
  .option('--off', 'clear the mark')
  .action(async (options: { company: string; off?: boolean }) => {
    const db = await appDb();
    const value = !options.off;
    const found = await db.transaction(async (tx) => {
      const ok = await setSoleProprietor({ db: tx, companyId: options.company, value });
      if (ok)
        await appendAudit({
          tx,
          actorId: null,
          action: 'company.sole_proprietor',
          entityType: 'company',
          entityId: options.company,
          detail: { soleProprietor: value, via: 'cli' },
        });
      return ok;
    });
    if (!found) throw new Error(`No company "${options.company}".`);
    console.log(`${options.company}: ${value ? 'marked as a sole proprietor' : 'no longer marked as a sole proprietor'}.`);
  });

registerImport(program);
registerDebate(program);
registerBatch(program);
registerRetrieve(program);
registerStats(program);
registerJudge(program);
registerEval(program);
registerPurge(program);
registerStability(program);
registerCaseFile(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  console.error(`Error: ${describeError(err)}`);
  process.exitCode = 1;
} finally {
  await closeDb().catch(() => {});
}
