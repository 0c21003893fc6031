/**
 * A private PostgreSQL cluster for the benchmarks (Debian's server binaries, `pg_config --bindir`):
 * its own folder under the temp directory, a free loopback port, `pg_stat_statements` preloaded
 * (statement counts and time by statement), durable commits (fsync and synchronous_commit on), WAL
 * kept long enough to be read back with `pg_waldump`. Nothing else runs on it, so its WAL and its CPU
 * time are the work of the side under test alone. Run as the `postgres` user (`runuser`) when this
 * process is root (initdb refuses root). Stopped and removed by `stop()`, and on exit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  dataDir: string;
  bindir: string;
  /** The postmaster's pid (the cluster's CPU time: cpu.ts). */
  pid(): number;
  /** Runs one of the cluster's binaries (pg_waldump ...) as its owner; returns stdout. */
  run(binary: string, args: string[]): string;
  stop(): void;
}

/** The settings, printed with every figure taken on this cluster. */
export const CLUSTER_SETTINGS: Record<string, string> = {
  listen_addresses: "'127.0.0.1'",
  max_connections: '200',
  shared_buffers: '128MB',
  max_wal_size: '1GB',
  wal_keep_size: '2GB',
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  autovacuum: 'on',
  shared_preload_libraries: "'pg_stat_statements'",
  'pg_stat_statements.track': "'all'",
  'pg_stat_statements.max': '10000',
  track_io_timing: 'on',
  timezone: "'UTC'",
};

function bindir(): string {
  if (process.env.BENCH_PG_BINDIR) return process.env.BENCH_PG_BINDIR;
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return '/usr/lib/postgresql/15/bin';
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = bindir();
  if (!existsSync(path.join(bin, 'initdb'))) throw new Error(`no initdb in ${bin} (set BENCH_PG_BINDIR, or give TEST_DATABASE_URL)`);
  const asRoot = userInfo().uid === 0;
  const root = mkdtempSync(path.join(tmpdir(), 'pix-bench-pg-'));
  const dataDir = path.join(root, 'data');
  const owner = () => {
    if (!asRoot) return;
    const pgUser = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const pgGroup = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(root, Number(pgUser), Number(pgGroup));
  };
  owner();
  const run = (binary: string, args: string[], options: { timeoutMs?: number } = {}): string => {
    const file = path.join(bin, binary);
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    const r = spawnSync(cmd, argv as string[], { encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`${binary} ${args.join(' ')}: exit ${r.status ?? r.signal}\n${r.stderr}`);
    return r.stdout;
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const settings = { ...CLUSTER_SETTINGS, port: String(port), unix_socket_directories: `'${root}'` };
  const conf = path.join(dataDir, 'postgresql.auto.conf');
  writeFileSync(conf, Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join('\n') + '\n');
  if (asRoot) owner();
  run('pg_ctl', ['-D', dataDir, '-l', path.join(root, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    } catch (error) {
      console.error(`stopping the benchmark's PostgreSQL: ${(error as Error).message}`);
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', stop);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    bindir: bin,
    pid: () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    run: (binary, args) => run(binary, args, { timeoutMs: 600_000 }),
    stop,
  };
}

