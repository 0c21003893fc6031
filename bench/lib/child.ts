/**
 * A program of this repository run as its own process through tsx (as `npm start` runs the
 * service), its output kept in a log file, ready once it printed a given text, stopped with SIGTERM
 * (SIGKILL to its process group after a bound).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './pg-cluster.ts';
import type { BenchPostgres } from './postgres.ts';
import { sleep } from './stats.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 20_000;

export interface ChildOptions {
  /** The entry file, relative to the repository. */
  entry: string;
  env: Record<string, string>;
  /** node flags (tsx passes them on). */
  nodeFlags?: string[];
  /** Ready once stdout contains this. */
  readyText: string;
  logPath: string;
  /** The checkout to run it from (default: this one); it needs its own node_modules. */
  root?: string;
}

export async function startChild(options: ChildOptions) {
  const log = createWriteStream(options.logPath);
  const child = spawn(TSX, [...(options.nodeFlags ?? []), options.entry], { cwd: options.root ?? ROOT, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    log.write(chunk);
    if (output.length < 100_000) output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => log.write(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let alive = true;
  void exited.then(() => (alive = false));

  async function stop() {
    if (alive && child.pid) {
      child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
      if (!done) {
        console.error(`      ${options.entry} did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM: killed`);
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await exited;
      }
    }
    await new Promise<void>((resolve) => log.end(resolve));
  }

  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!output.includes(options.readyText)) {
    const why = !alive ? 'it exited' : performance.now() > deadline ? `not ready within ${START_TIMEOUT_MS / 1000} s` : undefined;
    if (why) {
      await stop();
      const tail = readFileSync(options.logPath, 'utf8').split('\n').slice(-40).join('\n');
      throw new Error(`${options.entry} did not start: ${why}\n${tail}`);
    }
    await sleep(100);
  }
  return { pid: child.pid!, stop };
}

/** This process's environment less the variables a benchmark sets or must not pass on. */
export function inheritedEnv(cleared: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !cleared.includes(k))) as Record<string, string>;
}

/**
 * A program on a database of its own on the benchmark's server and a free loopback port, with a
 * temp folder for its files and log; `release(keep)` stops it, removes the folder and (unless kept
 * for reading its statistics) drops the database.
 */
export async function startOnDatabase(
  pgs: BenchPostgres,
  options: { prefix: string; entry: string; readyText: string; nodeFlags?: string[]; root?: string; env: (d: { databaseUrl: string; port: number; folder: string }) => Record<string, string> },
) {
  const database = await pgs.createDatabase(options.prefix);
  const folder = mkdtempSync(path.join(tmpdir(), `pix-${options.prefix}-`));
  const port = await freePort();
  const env = options.env({ databaseUrl: pgs.urlOf(database), port, folder });
  const child = await startChild({ entry: options.entry, env, readyText: options.readyText, logPath: path.join(folder, 'output.log'), ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}), ...(options.root ? { root: options.root } : {}) }).catch(
    async (error: unknown) => {
      rmSync(folder, { recursive: true, force: true });
      await pgs.dropDatabase(database);
      throw error;
    },
  );
  return {
    database,
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async release(keep: boolean) {
      await child.stop();
      rmSync(folder, { recursive: true, force: true });
      if (!keep) await pgs.dropDatabase(database);
    },
  };
}
