// The embedded data folder: PGlite's files, the generated auth secret, and a lock file.
// PGlite has no lock of its own, and two processes on one folder corrupt it, so we keep one.
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { env, type Env } from '@/lib/env';

export class DataFolderError extends Error {}

export function resolveDataDir(e: Env = env()): string {
  if (e.CROSSCHECK_DATA_DIR) return path.resolve(e.CROSSCHECK_DATA_DIR);
  const name = e.CROSSCHECK_ENV ?? ({ development: 'dev', test: 'test', production: 'start' } as const)[e.NODE_ENV];
  return path.resolve(process.cwd(), '.data', name);
}

/**
 * Whether the lock's owner still runs. After a container restart a pid can belong to an
 * unrelated process, so on Linux we also ask /proc whether it is a Node process.
 */
function lockOwnerAlive(pid: number) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return /node/i.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true; // No /proc (macOS): trust kill(0).
  }
}

const held = new Set<string>();

/** Takes the folder's lock for this process, or explains who holds it and what to do. */
export function lockDataDir(dir: string) {
  if (held.has(dir)) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new DataFolderError(`Cannot create the data folder ${dir}: ${(err as Error).message}. Set CROSSCHECK_DATA_DIR to a writable folder.`);
  }
  const lockPath = path.join(dir, 'crosscheck.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      held.add(dir);
      process.once('exit', () => held.has(dir) && fs.rmSync(lockPath, { force: true }));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (owner && owner !== process.pid && lockOwnerAlive(owner)) {
        throw new DataFolderError(
          `The data folder ${dir} is in use by another Crosscheck process (pid ${owner}). ` +
            'Stop that process first, or set CROSSCHECK_DATA_DIR to another folder.',
        );
      }
      // The process that held it is gone: the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataFolderError(`Could not lock the data folder ${dir}. Remove ${lockPath} if no Crosscheck process is running.`);
}

/** Gives the folder back (after the database is closed), so another process may open it. */
export function unlockDataDir(dir: string) {
  if (!held.delete(dir)) return;
  const lockPath = path.join(dir, 'crosscheck.lock');
  try {
    if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}

/**
 * AUTH_SECRET when set; otherwise, on the embedded database, a secret generated at first
 * start and kept in the data folder so `npm start` needs no configuration.
 */
export function resolveAuthSecret(e: Env = env()): string {
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  if (e.DATABASE_URL) {
    throw new DataFolderError('AUTH_SECRET must be set when DATABASE_URL is set (all instances need the same one).');
  }
  const dir = resolveDataDir(e);
  const file = path.join(dir, 'auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
      return secret;
    } catch {
      // Another request wrote it first; use theirs.
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}
