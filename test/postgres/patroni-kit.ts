import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../deployment/instances-kit.ts';
import { clusterSupport } from './pg-cluster-kit.ts';

/**
 * A PostgreSQL cluster under a real HA manager, as operators run one (deploy/patroni/patroni.yml):
 * one etcd (Debian's `etcd-server`) and two PostgreSQL nodes (Debian's server binaries,
 * `pg_config --bindir`) each under its own Patroni (Debian's `patroni`), in synchronous mode, every
 * process as the `postgres` user on free loopback ports, every file in one temporary folder. Also
 * Debian's `haproxy` in front of it, checking Patroni's REST API (deploy/haproxy/haproxy.cfg).
 *
 * The bounds the suites derive from come from the template's settings: Patroni's leader key lives
 * TTL_S seconds, each node runs its loop every LOOP_WAIT_S and gives up on etcd after RETRY_TIMEOUT_S.
 */
const TEMPLATE = fileURLToPath(new URL('../../deploy/patroni/patroni.yml', import.meta.url));
const HAPROXY_TEMPLATE = fileURLToPath(new URL('../../deploy/haproxy/haproxy.cfg', import.meta.url));
const dcs = parseYaml(readFileSync(TEMPLATE, 'utf8').replace(/\$\{[A-Z0-9_]+\}/g, 'x')).bootstrap.dcs as { ttl: number; loop_wait: number; retry_timeout: number };
export const TTL_S = dcs.ttl;
export const LOOP_WAIT_S = dcs.loop_wait;
export const RETRY_TIMEOUT_S = dcs.retry_timeout;

/** Set in CI (.ci/run): a machine without patroni, etcd or haproxy fails the suite instead of skipping it. */
export const PATRONI_REQUIRED = process.env.CI === '1' || process.env.CI === 'true' || process.env.PATRONI_REQUIRED === '1';

const which = (tool: string, ...fallbacks: string[]) => {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  return found || fallbacks.find((f) => existsSync(f));
};

export interface PatroniTools {
  bin: string;
  patroni: string;
  patronictl: string;
  etcd: string;
  haproxy: string;
}

/** What is missing to run Patroni here, or undefined when nothing is. */
export function patroniSupport(): { tools: PatroniTools; missing?: undefined } | { tools?: undefined; missing: string } {
  const pgSupport = clusterSupport();
  if (!pgSupport.bin) return { missing: pgSupport.missing ?? 'PostgreSQL server binaries are not installed' };
  const patroni = which('patroni');
  const patronictl = which('patronictl');
  const etcd = which('etcd');
  const haproxy = which('haproxy', '/usr/sbin/haproxy');
  const missing = [
    !patroni || !patronictl ? 'patroni (apt-get install patroni)' : undefined,
    !etcd ? 'etcd (apt-get install etcd-server)' : undefined,
    !haproxy ? 'haproxy (apt-get install haproxy)' : undefined,
    !existsSync(path.join(pgSupport.bin, 'pg_rewind')) ? `pg_rewind in ${pgSupport.bin}` : undefined,
    isRoot && !which('setpriv') ? 'setpriv (util-linux)' : undefined,
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) return { missing: `not installed: ${missing.join(', ')}` };
  return { tools: { bin: pgSupport.bin, patroni: patroni!, patronictl: patronictl!, etcd: etcd!, haproxy: haproxy! } };
}

const isRoot = process.getuid?.() === 0;
const run = promisify(execFile);
const postgresIds = () => (isRoot ? ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())) : undefined);

/** A long-running process of the cluster, with its output kept (the tail is shown when a test fails). */
interface Daemon {
  readonly child: ChildProcess;
  output(): string;
  exited(): boolean;
}

function daemon(command: string, args: string[], cwd: string): Daemon {
  // setpriv execs the command itself (runuser would stay its parent): the pid is the daemon's, for kill -9.
  const child = isRoot
    ? spawn('setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8' } })
    : spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8' } });
  let output = '';
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > 400_000) output = output.slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let done = false;
  child.on('exit', () => (done = true));
  child.on('error', (error) => {
    done = true;
    output += `\nspawn failed: ${error.message}\n`;
  });
  return { child, output: () => output, exited: () => done };
}

async function stopDaemon(d: Daemon | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!d || d.exited()) return;
  const gone = new Promise<void>((resolve) => d.child.once('exit', () => resolve()));
  d.child.kill(signal);
  await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, withinMs: number, check: () => Promise<T | undefined> | T | undefined, state?: () => string | Promise<string>): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms${state ? `; ${await state()}` : ''}`);
    await sleep(100);
  }
}

/** A member as Patroni's REST API (`GET /cluster`) reports it. */
export interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

export interface PatroniNode {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  readonly dataDir: string;
  /** A superuser connection string to this node's PostgreSQL (`database` defaults to postgres). */
  url(database?: string): string;
  /** A short-lived connection for one query (bounded). */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[], database?: string): Promise<T[]>;
  /** Whether this node's PostgreSQL answers and is a primary (not in recovery); undefined when it does not answer. */
  isPrimary(): Promise<boolean | undefined>;
  /** The postmaster's pid from postmaster.pid, when one runs. */
  postmasterPid(): number | undefined;
  /** kill -9 of the postmaster (the PostgreSQL server crashes; its Patroni keeps running). */
  killPostmaster(): void;
  /** kill -9 of Patroni (the host as seen from etcd and the other node: gone; its PostgreSQL keeps running). */
  killPatroni(): Promise<void>;
  /** Starts this node's Patroni again (after killPatroni). */
  startPatroni(): void;
  patroniRunning(): boolean;
  /** Patroni's output and PostgreSQL's log (for a failure message). */
  log(): string;
}

export interface PatroniCluster {
  readonly scope: string;
  readonly dir: string;
  readonly nodes: readonly [PatroniNode, PatroniNode];
  readonly etcdUrl: string;
  node(name: string): PatroniNode;
  /** The members as any running Patroni reports them (etcd's view), or undefined when none answers. */
  members(): Promise<Member[] | undefined>;
  /** Resolves once `leader` leads and the other node is its synchronous standby, streaming. */
  healthy(withinMs: number): Promise<{ leader: PatroniNode; standby: PatroniNode }>;
  /** `patronictl` with this cluster's configuration (as the runbook runs it). */
  patronictl(...args: string[]): Promise<string>;
  /** Every log, for a failure message. */
  logs(): string;
  /** Kills every process (Patroni, PostgreSQL, etcd, HAProxy) and removes the folder. */
  destroy(): Promise<void>;
  /** Debian's HAProxy in front of both nodes, checking `GET /primary` on each Patroni's REST API. */
  startHaproxy(): Promise<{ port: number; log(): string; stop(): Promise<void> }>;
}

/** deploy/'s templates: `${NAME}` placeholders as envsubst fills them; one left unfilled is an error here. */
export function renderTemplate(file: string, values: Record<string, string | number>): string {
  return readFileSync(file, 'utf8').replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`${file}: no value for \${${name}}`);
    return String(values[name]);
  });
}

/**
 * Patroni's configuration for one node: deploy/patroni/patroni.yml as an operator renders it, with
 * what only a test on one shared machine changes: trust authentication on loopback (no passwords to
 * hand around), fsync off (the test kills processes, not the machine), small shared buffers, the
 * socket, pgpass file and server log in the test's folder. Written as JSON (YAML's superset).
 */
function patroniConfig(o: { scope: string; name: string; dir: string; bin: string; pgPort: number; restPort: number; etcdPort: number; fence: string }) {
  const config = parseYaml(
    renderTemplate(TEMPLATE, {
      PATRONI_SCOPE: o.scope,
      NODE_NAME: o.name,
      NODE_HOST: '127.0.0.1',
      PG_PORT: o.pgPort,
      REST_PORT: o.restPort,
      ETCD_HOSTS: `127.0.0.1:${o.etcdPort}`,
      DATA_DIR: path.join(o.dir, o.name),
      BIN_DIR: o.bin,
      FENCE_COMMAND: o.fence,
      NETWORK: '127.0.0.1/32',
    }),
  );
  Object.assign(config.bootstrap.dcs.postgresql.parameters, { fsync: 'off', shared_buffers: '32MB' });
  config.postgresql.pg_hba = ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];
  config.postgresql.pgpass = path.join(o.dir, `${o.name}.pgpass`);
  config.postgresql.parameters = { unix_socket_directories: o.dir, logging_collector: 'on', log_directory: 'log', log_filename: 'postgresql.log' };
  return config;
}

/**
 * The fencing script Patroni runs (`pre_promote`) after winning the leader key and before promoting:
 * production powers the old primary's machine off through an out-of-band API (docs/operations.md);
 * here the "machine" is the other node's postmaster, stopped at once when it still answers as a
 * primary. A non-zero exit keeps Patroni from promoting (safe: unavailable rather than two primaries).
 */
function fenceScript(o: { bin: string; otherPort: number; otherDataDir: string; logFile: string }) {
  return [
    '#!/bin/sh',
    `echo "$(date +%s.%N) fence: checking 127.0.0.1:${o.otherPort}" >> '${o.logFile}'`,
    `answer=$('${path.join(o.bin, 'psql')}' "host=127.0.0.1 port=${o.otherPort} user=postgres dbname=postgres connect_timeout=2" -Atc 'SELECT pg_is_in_recovery()' 2>/dev/null)`,
    'if [ "$answer" = "f" ]; then',
    `  echo "$(date +%s.%N) fence: the old primary answers as a primary: stopping it" >> '${o.logFile}'`,
    `  '${path.join(o.bin, 'pg_ctl')}' stop -m immediate -w -t 20 -D '${o.otherDataDir}' >> '${o.logFile}' 2>&1 || exit 1`,
    'fi',
    `echo "$(date +%s.%N) fence: done (answer: $answer)" >> '${o.logFile}'`,
    'exit 0',
    '',
  ].join('\n');
}

export async function startPatroniCluster(tools: PatroniTools): Promise<PatroniCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-patroni-'));
  const ids = postgresIds();
  if (ids) chownSync(dir, ids[0]!, ids[1]!);
  const scope = `pix-${path.basename(dir).slice(-6).toLowerCase()}`;
  const [etcdPort, etcdPeerPort] = [await freePort(), await freePort()];
  const ports = [
    { pg: await freePort(), rest: await freePort() },
    { pg: await freePort(), rest: await freePort() },
  ];
  const names = ['node1', 'node2'] as const;
  const daemons: Record<string, Daemon | undefined> = {};
  let haproxy: Daemon | undefined;
  const owned = (file: string, text: string, mode = 0o600) => {
    writeFileSync(file, text, { mode });
    chmodSync(file, mode);
    if (ids) chownSync(file, ids[0]!, ids[1]!);
  };
  const configFile = (name: string) => path.join(dir, `${name}.yml`);

  const etcdDir = path.join(dir, 'etcd');
  mkdirSync(etcdDir, { mode: 0o700 });
  if (ids) chownSync(etcdDir, ids[0]!, ids[1]!);
  const startEtcd = () => {
    daemons.etcd = daemon(
      tools.etcd,
      [
        '--name', 'etcd1',
        '--data-dir', etcdDir,
        '--listen-client-urls', `http://127.0.0.1:${etcdPort}`,
        '--advertise-client-urls', `http://127.0.0.1:${etcdPort}`,
        '--listen-peer-urls', `http://127.0.0.1:${etcdPeerPort}`,
        '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeerPort}`,
        '--initial-cluster', `etcd1=http://127.0.0.1:${etcdPeerPort}`,
        '--initial-cluster-state', 'new',
        '--initial-cluster-token', scope,
        // No fsync per write: the test's etcd shares a busy disk (production keeps the default).
        '--unsafe-no-fsync',
      ],
      dir,
    );
  };

  const nodes = names.map((name, i) => {
    const own = ports[i]!;
    const other = ports[1 - i]!;
    const dataDir = path.join(dir, name);
    const fence = path.join(dir, `${name}-fence.sh`);
    owned(fence, fenceScript({ bin: tools.bin, otherPort: other.pg, otherDataDir: path.join(dir, names[1 - i]!), logFile: path.join(dir, `${name}-fence.log`) }), 0o700);
    owned(
      configFile(name),
      JSON.stringify(patroniConfig({ scope, name, dir, bin: tools.bin, pgPort: own.pg, restPort: own.rest, etcdPort, fence }), null, 2),
    );
    const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${own.pg}/${database}`;
    const node: PatroniNode = {
      name,
      pgPort: own.pg,
      restPort: own.rest,
      dataDir,
      url,
      async query<T extends pg.QueryResultRow>(text: string, values?: unknown[], database?: string) {
        const client = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 3_000, query_timeout: 10_000, application_name: 'pix-patroni-test' });
        client.on('error', () => {});
        await client.connect();
        try {
          return (await client.query<T>(text, values)).rows;
        } finally {
          await client.end().catch(() => {});
        }
      },
      async isPrimary() {
        try {
          const rows = await node.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
          return !rows[0]!.r;
        } catch {
          return undefined;
        }
      },
      postmasterPid() {
        const file = path.join(dataDir, 'postmaster.pid');
        if (!existsSync(file)) return undefined;
        const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
        try {
          process.kill(pid, 0);
          return pid;
        } catch {
          return undefined;
        }
      },
      killPostmaster() {
        const pid = node.postmasterPid();
        if (pid === undefined) throw new Error(`${name}: no postmaster running`);
        process.kill(pid, 'SIGKILL');
      },
      async killPatroni() {
        await stopDaemon(daemons[name], 'SIGKILL');
      },
      startPatroni() {
        if (daemons[name] && !daemons[name]!.exited()) throw new Error(`${name}: Patroni is running`);
        daemons[name] = daemon(tools.patroni, [configFile(name)], dir);
      },
      patroniRunning: () => daemons[name] !== undefined && !daemons[name]!.exited(),
      log() {
        const pgLogDir = path.join(dataDir, 'log');
        let pgLog = '';
        try {
          pgLog = execFileSync('sh', ['-c', `cat '${pgLogDir}'/*.log 2>/dev/null | tail -c 4000`], { encoding: 'utf8' });
        } catch {
          /* no log yet */
        }
        const fenceLog = path.join(dir, `${name}-fence.log`);
        return [
          `--- ${name} patroni (tail):\n${(daemons[name]?.output() ?? '').slice(-6000)}`,
          `--- ${name} postgresql log (tail):\n${pgLog}`,
          existsSync(fenceLog) ? `--- ${name} fence log:\n${readFileSync(fenceLog, 'utf8')}` : '',
        ].join('\n');
      },
    };
    return node;
  }) as [PatroniNode, PatroniNode];

  const members = async (): Promise<Member[] | undefined> => {
    for (const n of nodes) {
      if (!n.patroniRunning()) continue;
      try {
        const res = await fetch(`http://127.0.0.1:${n.restPort}/cluster`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) return ((await res.json()) as { members: Member[] }).members;
      } catch {
        /* the next node */
      }
    }
    return undefined;
  };
  const logs = () => [...nodes.map((n) => n.log()), `--- etcd (tail):\n${(daemons.etcd?.output() ?? '').slice(-2000)}`, haproxy ? `--- haproxy:\n${haproxy.output().slice(-2000)}` : ''].join('\n');

  const destroy = async () => {
    await stopDaemon(haproxy);
    for (const n of nodes) await n.killPatroni();
    // Patroni starts PostgreSQL detached (the postmaster outlives a killed Patroni): stopped here by its pid.
    for (const n of nodes) {
      const pid = n.postmasterPid();
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    await stopDaemon(daemons.etcd);
    // The backends of a killed postmaster exit on their own shortly after it.
    await sleep(500);
    rmSync(dir, { recursive: true, force: true });
  };

  const cluster: PatroniCluster = {
    scope,
    dir,
    nodes,
    etcdUrl: `http://127.0.0.1:${etcdPort}`,
    node: (name) => nodes.find((n) => n.name === name)!,
    members,
    async healthy(withinMs) {
      let last: Member[] | undefined;
      const state = () => `members: ${JSON.stringify(last)}`;
      return until(
        'a leader with a streaming synchronous standby',
        withinMs,
        async () => {
          last = await members();
          const leader = last?.find((m) => m.role === 'leader' && m.state === 'running');
          const sync = last?.find((m) => m.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running'));
          if (!leader || !sync) return undefined;
          const leaderNode = cluster.node(leader.name);
          const standbyNode = cluster.node(sync.name);
          // Patroni's view and the servers' own agree.
          if ((await leaderNode.isPrimary()) !== true || (await standbyNode.isPrimary()) !== false) return undefined;
          return { leader: leaderNode, standby: standbyNode };
        },
        state,
      );
    },
    async patronictl(...args) {
      const config = configFile(nodes.find((n) => n.patroniRunning())?.name ?? 'node1');
      const { stdout } = await run(tools.patronictl, ['-c', config, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: dir } });
      return stdout;
    },
    logs,
    destroy,
    async startHaproxy() {
      const port = await freePort();
      const statsPort = await freePort();
      const file = path.join(dir, 'haproxy.cfg');
      owned(file, haproxyConfig({ port, statsPort, nodes }), 0o644);
      haproxy = daemon(tools.haproxy, ['-db', '-f', file], dir);
      const proxy = haproxy;
      await until('HAProxy listening', 30_000, async () => {
        if (proxy.exited()) throw new Error(`haproxy exited:\n${proxy.output()}`);
        try {
          const res = await fetch(`http://127.0.0.1:${statsPort}/`, { signal: AbortSignal.timeout(1_000) });
          return res.ok ? true : undefined;
        } catch {
          return undefined;
        }
      });
      return { port, log: () => proxy.output(), stop: () => stopDaemon(proxy, 'SIGTERM') };
    },
  };

  try {
    startEtcd();
    await until('etcd answering', 60_000, async () => {
      if (daemons.etcd!.exited()) throw new Error('etcd exited');
      try {
        const res = await fetch(`http://127.0.0.1:${etcdPort}/health`, { signal: AbortSignal.timeout(1_000) });
        return res.ok ? true : undefined;
      } catch {
        return undefined;
      }
    });
    // The first node bootstraps (initdb) and leads; the second clones it (pg_basebackup) and follows.
    nodes[0].startPatroni();
    await until('node1 bootstrapped as the leader', 120_000, async () => ((await members())?.some((m) => m.name === 'node1' && m.role === 'leader' && m.state === 'running') ? true : undefined));
    nodes[1].startPatroni();
    await cluster.healthy(120_000);
  } catch (error) {
    const text = logs();
    await destroy();
    throw new Error(`could not start the Patroni cluster: ${(error as Error).message}\n${text}`);
  }
  return cluster;
}

/** deploy/haproxy/haproxy.cfg with the test's addresses. */
function haproxyConfig(o: { port: number; statsPort: number; nodes: readonly PatroniNode[] }) {
  const [node1, node2] = o.nodes;
  return renderTemplate(HAPROXY_TEMPLATE, {
    LISTEN_ADDRESS: `127.0.0.1:${o.port}`,
    STATS_ADDRESS: `127.0.0.1:${o.statsPort}`,
    NODE1_HOST: '127.0.0.1',
    NODE1_PG_PORT: node1!.pgPort,
    NODE1_REST_PORT: node1!.restPort,
    NODE2_HOST: '127.0.0.1',
    NODE2_PG_PORT: node2!.pgPort,
    NODE2_REST_PORT: node2!.restPort,
  });
}
