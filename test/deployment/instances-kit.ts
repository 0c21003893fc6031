import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { providerEnv } from '../provider-env.ts';

// Strong enough for production mode (issue 10: at least 32 characters and about 128 bits).
export const ADMIN = 'deploy-admin-Zq7xK2mR9vT4wB8nL3pF6hJ1';

/** A database of its own on the test server (several processes share it), dropped by `drop`. */
export async function createOwnDatabase(serverUrl: string) {
  const name = `pix_deploy_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, application_name: 'pix-deploy-test' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl, application_name: 'pix-deploy-test' });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A free TCP port on loopback (for nginx, whose configuration needs it written down). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  /** Every JSON log line printed so far. */
  lines(): Array<Record<string, any>>;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /**
   * SIGTERM, then the exit code; SIGKILL (code null) only past `killAfterMs`, which must exceed the
   * service's own shutdown bound (main.ts: 2 x SHUTDOWN_DELAY_MS + 10 s, + 2 s with workers), past
   * which it exits 1 by itself, naming the stage it was in.
   */
  stop(killAfterMs?: number): Promise<number | null>;
  process: ChildProcess;
}

/** One service process (`src/main.ts`, production mode) on `databaseUrl`; resolves once it listens. */
export async function startInstance(name: string, databaseUrl: string, env: Record<string, string> = {}, options: { cwd?: string } = {}): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    // Another checkout of the service (an older build in the two-builds test), else this one.
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: {
      PATH: process.env.PATH,
      MODE: 'production',
      ADMIN_TOKEN: ADMIN,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      // Stopped at once (production's default serves 5 s more after SIGTERM): suites about the
      // shutdown itself set their own.
      SHUTDOWN_DELAY_MS: '0',
      // Production needs a PIX provider: by default one on a closed port (suites that pay through one set their own).
      ...((env.MODE ?? 'production') === 'production' ? providerEnv() : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let stopping = false;
  // An instance that dies on its own is a finding: show why.
  void exited.then((code) => {
    if (!stopping) console.error(`instance ${name} exited by itself (code ${code}):\n${output.split('\n').slice(-30).join('\n')}`);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at https?:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`instance ${name} exited at start:\n${output}`));
    });
  });
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    lines: () =>
      output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l)),
    async stop(killAfterMs = 40_000) {
      stopping = true;
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** JSON over HTTP to an instance. */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export const asAdmin = { authorization: `Bearer ${ADMIN}` };
