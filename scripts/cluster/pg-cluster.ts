// A throwaway PostgreSQL server of our own (initdb + pg_ctl from the Debian binaries), for the
// fault tests and the load benchmark: unlike the shared server on 5432 it can be restarted in the
// middle of a run without disturbing anyone. Data is thrown away on stop; fsync is off.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type PgCluster = {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  /** Fast shutdown then start again on the same port and data: every connection is cut. */
  restart: () => void;
  stop: () => void;
};

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.map((v) => path.join(base, v, 'bin')).findLast((b) => fs.existsSync(path.join(b, 'initdb')));
  if (!bin) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql).');
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses to run as root: as root the server runs as the postgres user. */
function asPostgres(command: string, args: string[]) {
  const root = process.getuid?.() === 0;
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export async function startPgCluster({ database = 'crosscheck' }: { database?: string } = {}): Promise<PgCluster> {
  const bin = pgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:', dir]);
  const port = await freePort();
  asPostgres(path.join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth-host=trust', '--auth-local=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off -c max_connections=300`;
  const start = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', dir, '-l', path.join(dir, 'server.log'), '-w', '-o', options, 'start']);
  const stopServer = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
  start();
  execFileSync(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qAtc', `CREATE DATABASE "${database}"`]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    restart: () => {
      stopServer();
      start();
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        stopServer();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
