import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { cpf } from '../factories.ts';

export const CLI_ADMIN_TOKEN = 'cli-admin-token-0123456789-QWERTYzxcv';
const PIX = path.resolve('sdk/bin/pix.js');

/**
 * The service as `npm start` runs it in sandbox mode (its real clock, its scheduler and webhook
 * relay running), in this process on an embedded database that outlives a stop, so the test can
 * restart it on the same port and the same data.
 */
export async function startSandbox(env: Record<string, string> = {}) {
  const database = await openDatabase({ dataDir: 'memory://' });
  const kept: Database = { ...database, close: async () => {} };
  const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN: CLI_ADMIN_TOKEN, DATA_DIR: 'memory://', LOG_LEVEL: 'silent', SANDBOX_SETTLEMENT_DELAY_MS: '100', ...env });
  let port = 0;
  let running: { stop: () => Promise<void> } | undefined;

  async function boot() {
    const c = await createContainer(config, { database: kept, logger: pino({ level: 'silent' }) });
    const app = await buildApp(c);
    await app.listen({ port, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    c.start();
    running = { stop: async () => { await app.close(); await c.close(); } };
  }
  await boot();
  const url = `http://127.0.0.1:${port}`;

  const admin = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${CLI_ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  return {
    url,
    admin,
    /** A new account with a certificate (its PEM in a file) and credentials. */
    async account(dir: string) {
      const created = await admin('POST', '/admin/accounts', { name: 'Conta CLI', document: cpf(900_000 + Math.floor(Math.random() * 1e5)) });
      const cert = await admin('POST', `/admin/accounts/${created.id}/certificates`, {});
      const creds = await admin('POST', `/admin/accounts/${created.id}/credentials`, {});
      const certFile = path.join(dir, `account-${created.id}-cert.pem`);
      writeFileSync(certFile, cert.certificatePem);
      return { id: created.id as number, clientId: creds.clientId as string, clientSecret: creds.clientSecret as string, certFile };
    },
    /** Stops the service (graceful, as SIGTERM does) and starts it again on the same port and data. */
    async restart(whileDown?: () => Promise<void>) {
      await running?.stop();
      await whileDown?.();
      await boot();
    },
    async stop() {
      await running?.stop();
      running = undefined;
      await database.close();
    },
  };
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** A folder for a test's files and its own XDG_CONFIG_HOME. */
export function workDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-cli-'));
  return { dir, configHome: path.join(dir, 'config'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment of a `pix` process: nothing of the test's own PIX_* variables, its own config folder. */
export function cliEnv(configHome: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_'))) as NodeJS.ProcessEnv;
  return { ...env, XDG_CONFIG_HOME: configHome, ...extra };
}

/**
 * Runs `pix` to its end: exit code, stdout, stderr. One that is still running after `timeoutMs` is
 * killed (SIGKILL: a command that ignores SIGTERM cannot outlive its bound) and that is an error.
 */
export function pix(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    trackProcess(execFile(process.execPath, [PIX, ...args], { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(new Error(`pix ${args[0]} did not end within ${timeoutMs} ms (${error.message}); stderr: ${stderr}`));
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    }));
  });
}

/** Every `pix` process a test started (and the README's listener) that has not exited yet. */
const liveProcesses = new Map<ChildProcess, { group: boolean }>();

/**
 * Kills (SIGKILL, its process group when it leads one) every process started by pix, pixProcess or
 * trackProcess that is still running, and waits for each to be gone: an afterAll calls it, so a hung
 * `pix listen` can never keep the test file running past its bound.
 */
export async function killRunning(): Promise<void> {
  await Promise.all([...liveProcesses].map(async ([child, { group }]) => {
    const gone = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
    try {
      if (child.pid !== undefined) process.kill(group ? -child.pid : child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await gone;
  }));
}

/** Tracks a spawned process for killRunning (a `detached` one is killed with its whole group). */
export function trackProcess(child: ChildProcess, group = false): ChildProcess {
  liveProcesses.set(child, { group });
  child.once('exit', () => liveProcesses.delete(child));
  return child;
}

/**
 * The exit code of `exited` within `withinMs`; past that the process (its group when `group`) is
 * killed and the wait is an error, so a test fails at its bound instead of hanging.
 */
export async function exitWithin(child: ChildProcess, exited: Promise<number | null>, withinMs: number, what: string, group = false): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
  const code = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (code !== 'late') return code;
  try {
    process.kill(group ? -child.pid! : child.pid!, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
  throw new Error(`${what} did not exit within ${withinMs} ms (killed)`);
}

/**
 * Node options of a long-running `pix` in tests: a garbage collection every few thousand allocations,
 * so a test of seconds sees what a listener running for hours does (an abort that a collection cut
 * off from its connection hung `pix listen` on Ctrl-C only after one had run).
 */
export const FREQUENT_GC = ['--gc-interval=20000'];

/** Starts a long-running `pix` (listen) and collects its output lines; killRunning() ends it if the test does not. */
export function pixProcess(args: string[], env: NodeJS.ProcessEnv, nodeOptions: string[] = FREQUENT_GC) {
  const child: ChildProcess = trackProcess(spawn(process.execPath, [...nodeOptions, PIX, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const lines: string[] = [];
  const errors: string[] = [];
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => errors.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, errors, exited, exitWithin: (withinMs: number, what = `pix ${args[0]}`) => exitWithin(child, exited, withinMs, what) };
}

export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, withinMs: number, what: string): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} (within ${withinMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
