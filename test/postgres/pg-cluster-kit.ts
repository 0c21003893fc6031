import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../deployment/instances-kit.ts';

/**
 * A primary and a synchronous streaming standby on Debian's PostgreSQL server binaries (`initdb`,
 * `pg_ctl`, `pg_basebackup` in `pg_config --bindir`), each on its own free port and in its own
 * folder of one temporary folder. As root the binaries run as the `postgres` user (`runuser -u
 * postgres --`: initdb refuses root); as anyone else, as that user.
 */
const run = promisify(execFile);

/** Set in CI (.ci/run): a machine that cannot run the clusters fails the suite instead of skipping it. */
export const CLUSTER_REQUIRED = process.env.CI === '1' || process.env.CI === 'true' || process.env.POSTGRES_CLUSTER_REQUIRED === '1';

function binDir(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    /* no pg_config on PATH */
  }
  if (existsSync('/usr/lib/postgresql')) {
    for (const version of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((bin) => existsSync(path.join(dir, bin))));
}

const isRoot = process.getuid?.() === 0;

/** What is missing to run the clusters here, or undefined when nothing is. */
export function clusterSupport(): { bin: string; missing?: undefined } | { bin?: undefined; missing: string } {
  const bin = binDir();
  if (!bin) return { missing: 'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup; Debian: postgresql-15) are not installed' };
  if (isRoot && spawnSync('runuser', ['-u', 'postgres', '--', 'true']).status !== 0) {
    return { missing: 'running as root, but `runuser -u postgres` does not work (no postgres user?): initdb refuses root' };
  }
  return { bin };
}

export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** A superuser connection string to this node's `postgres` database. */
  readonly url: string;
  /** A short-lived connection for one query. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** The server's log so far (shown when a test fails). */
  log(): string;
}

export interface ReplicatedPair {
  readonly primary: ClusterNode;
  readonly standby: ClusterNode;
  /** `pg_ctl stop -m immediate` on the primary: no shutdown checkpoint, connections cut at once. */
  crashPrimary(): Promise<void>;
  /** `pg_ctl promote -w` on the standby: resolves once it accepts writes. */
  promoteStandby(): Promise<void>;
  /** Stops both servers (immediately) and removes their folders. */
  destroy(): Promise<void>;
}

export async function startReplicatedPair(bin: string): Promise<ReplicatedPair> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-failover-'));
  if (isRoot) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    chownSync(dir, uid!, gid!);
  }
  const asServer = (tool: string, args: string[], timeoutMs = 120_000) =>
    isRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { timeout: timeoutMs }) : run(path.join(bin, tool), args, { timeout: timeoutMs });
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const folder = (name: string) => path.join(dir, name);
  const logFile = (name: string) => path.join(dir, `${name}.log`);

  const node = (name: string, port: number): ClusterNode => {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    return {
      name,
      port,
      dataDir: folder(name),
      url,
      async query<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 15_000 });
        client.on('error', () => {});
        await client.connect();
        try {
          return (await client.query<T>(text, values)).rows;
        } finally {
          await client.end().catch(() => {});
        }
      },
      log: () => (existsSync(logFile(name)) ? readFileSync(logFile(name), 'utf8') : ''),
    };
  };
  const primary = node('primary', primaryPort);
  const standby = node('standby', standbyPort);
  const pgCtl = (name: string, ...args: string[]) => asServer('pg_ctl', ['-D', folder(name), '-l', logFile(name), ...args]);

  const destroy = async () => {
    for (const name of ['standby', 'primary']) {
      if (existsSync(path.join(folder(name), 'postmaster.pid'))) await pgCtl(name, '-m', 'immediate', 'stop').catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await asServer('initdb', ['-D', folder('primary'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    // The commit of every acknowledged write waits for the standby (synchronous_commit=on with a
    // named synchronous standby): what the service answered 2xx is on the standby when the primary dies.
    // fsync is off: the test kills processes, not the machine, and the disk is shared with the suite.
    appendFileSync(
      path.join(folder('primary'), 'postgresql.conf'),
      [
        '',
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        "synchronous_standby_names = 'FIRST 1 (standby1)'",
        'synchronous_commit = on',
        'fsync = off',
        'shared_buffers = 32MB',
        'max_connections = 80',
        '',
      ].join('\n'),
    );
    await pgCtl('primary', '-w', '-t', '60', 'start');
    await asServer('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', folder('standby'), '-X', 'stream', '-R', '-c', 'fast', '--no-sync']);
    // After -R's settings (the last line wins): its own port, its name for synchronous_standby_names,
    // and no synchronous standby of its own once promoted (its commits would wait for nobody forever;
    // Patroni or pg_auto_failover adjust this on a real failover).
    appendFileSync(
      path.join(folder('standby'), 'postgresql.auto.conf'),
      [
        '',
        `port = ${standbyPort}`,
        `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby1'`,
        "synchronous_standby_names = ''",
        '',
      ].join('\n'),
    );
    await pgCtl('standby', '-w', '-t', '60', 'start');
    const until = Date.now() + 60_000;
    for (;;) {
      const rows = await primary.query<{ sync_state: string }>("SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'");
      if (rows[0]?.sync_state === 'sync') break;
      if (Date.now() > until) throw new Error(`the standby did not become synchronous within 60 s:\n${standby.log().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    const logs = `primary log:\n${primary.log().slice(-3000)}\nstandby log:\n${standby.log().slice(-3000)}`;
    await destroy();
    throw new Error(`could not start the primary and its standby: ${(error as Error).message}\n${logs}`);
  }

  return {
    primary,
    standby,
    crashPrimary: async () => {
      await pgCtl('primary', '-m', 'immediate', 'stop');
    },
    promoteStandby: async () => {
      await pgCtl('standby', '-w', '-t', '60', 'promote');
    },
    destroy,
  };
}
