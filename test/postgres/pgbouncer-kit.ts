import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { freePort } from '../deployment/instances-kit.ts';

/**
 * Debian's PgBouncer (`/usr/sbin/pgbouncer`) in front of the test server, in transaction mode and
 * otherwise with its default settings: a generated ini on a free loopback port, trust auth for the
 * server's own users (the test server trusts loopback too). PgBouncer refuses to run as root, so
 * as root it runs as the `postgres` user.
 */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** Set in CI (.ci/run): a machine without PgBouncer fails the suite instead of skipping it. */
export const PGBOUNCER_REQUIRED = process.env.CI === '1' || process.env.CI === 'true' || process.env.PGBOUNCER_REQUIRED === '1';

const isRoot = process.getuid?.() === 0;

/** What is missing to run PgBouncer here, or undefined. */
export function pgbouncerMissing(): string | undefined {
  if (!existsSync(PGBOUNCER)) return `${PGBOUNCER} is not installed (Debian package pgbouncer)`;
  if (isRoot && spawnSync('runuser', ['-u', 'postgres', '--', 'true']).status !== 0) return 'running as root, but `runuser -u postgres` does not work: pgbouncer refuses root';
  return undefined;
}

export interface Pgbouncer {
  port: number;
  /** `serverUrl` with its host and port replaced by PgBouncer's. */
  urlFor(serverUrl: string): string;
  output(): string;
  stop(): Promise<void>;
}

export async function startPgbouncer(serverUrl: string): Promise<Pgbouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-pgbouncer-'));
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir =`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      '',
    ].join('\n'),
  );
  if (isRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    for (const file of [dir, ini, path.join(dir, 'users.txt')]) chownSync(file, Number(ids), Number(gid));
  }
  const child: ChildProcess = isRoot ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer exited at start:\n${output}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`pgbouncer did not listen on ${port} within 15 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    urlFor(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    output: () => output,
    stop,
  };
}
