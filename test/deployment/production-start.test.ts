import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerEnv } from '../provider-env.ts';

const run = promisify(execFile);
// Inside the project, so the compiled files resolve its node_modules as dist/ does.
mkdirSync('node_modules/.cache', { recursive: true });
const outDir = path.resolve(mkdtempSync('node_modules/.cache/pix-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** `npm run build`'s two steps, into a temporary folder instead of dist/. */
beforeAll(async () => {
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', outDir]);
  await run(process.execPath, ['scripts/copy-build-assets.mjs', outDir]);
}, 240_000);

describe('production start (npm run build, npm run start:prod)', () => {
  it('the compiled one-shot migration step applies the migrations, then finds nothing to do', async () => {
    const dataDir = mkdtempSync(path.join(outDir, 'data-'));
    const env = { PATH: process.env.PATH, NODE_ENV: 'production', MODE: 'production', DATA_DIR: dataDir };
    const first = await run(process.execPath, [path.join(outDir, 'migrate-main.js')], { env });
    expect(first.stdout).toMatch(/^applied: 001_foundation\.sql, /);
    const again = await run(process.execPath, [path.join(outDir, 'migrate-main.js')], { env });
    expect(again.stdout.trim()).toBe('up to date: no migration to apply');
  }, 60_000);

  it('compiles the service to JavaScript with its migrations beside it, and no test files', () => {
    expect(existsSync(path.join(outDir, 'main.js'))).toBe(true);
    expect(existsSync(path.join(outDir, 'db/migrations/001_foundation.sql'))).toBe(true);
    expect(existsSync(path.join(outDir, 'domain/ispb-sample.csv'))).toBe(true);
    expect(existsSync(path.join(outDir, 'domain/money.test.js'))).toBe(false);
    // Relative imports point at the compiled files, so plain Node runs them (no tsx).
    expect(readFileSync(path.join(outDir, 'main.js'), 'utf8')).toContain('from "./app.js"');
  });

  it('the compiled service runs on plain Node in production mode, answers, and stops cleanly on SIGTERM', async () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts['start:prod']).toMatch(/NODE_ENV=production node .*dist\/main\.js/);
    expect(scripts.build).toContain('tsconfig.build.json');

    const service = await startCompiled();
    try {
      const health = await fetch(`http://127.0.0.1:${service.port}/health`);
      expect(health.status).toBe(200);
      // Production mode: no sandbox routes.
      const sandbox = await fetch(`http://127.0.0.1:${service.port}/sandbox/clock/advance`, { method: 'POST' });
      expect(sandbox.status).toBe(404);
      // The portal and the files it reads at run time (copied beside the compiled code by the build).
      const signIn = await fetch(`http://127.0.0.1:${service.port}/portal/sign-in`, { headers: { 'accept-language': 'en' } });
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain('Sign in');
      for (const [asset, type, marker] of [['portal.css', 'text/css', '{'], ['htmx.min.js', 'text/javascript', 'htmx'], ['portal.js', 'text/javascript', '']] as const) {
        const answer = await fetch(`http://127.0.0.1:${service.port}/portal/assets/${asset}`);
        expect(answer.status, asset).toBe(200);
        expect(answer.headers.get('content-type'), asset).toContain(type);
        const body = await answer.text();
        expect(body.length, asset).toBeGreaterThan(100);
        expect(body, asset).toContain(marker);
      }
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      service.child.kill('SIGKILL');
    }
  }, 120_000);

  it('SIGTERM drains: a request already in flight is answered, new connections are refused, then the process exits 0', async () => {
    const service = await startCompiled();
    try {
      const body = JSON.stringify({ clientId: 'someone', clientSecret: 'something' });
      const inFlight = openRequest(service.port, body);
      await inFlight.headersSent;
      const half = Math.floor(body.length / 2);
      inFlight.socket.write(body.slice(0, half));
      await new Promise((r) => setTimeout(r, 200));
      service.child.kill('SIGTERM');
      // The listener is closed at once: a new caller is turned away (the balancer tries another instance).
      await waitFor(async () => (await fetch(`http://127.0.0.1:${service.port}/health`).then(() => 'answered', () => 'refused')) === 'refused');
      inFlight.socket.write(body.slice(half));
      const answer = await inFlight.answer;
      // The token request itself ran to its end: no certificate in production, the spec's code.
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('PUB_CERT_HEADER_MISSING');
      expect(answer.toLowerCase()).toContain('connection: close');
      const answeredAt = Date.now();
      expect(await service.exited).toBe(0);
      // Well inside the 10 s bound: the drained connection closed with its answer.
      expect(Date.now() - answeredAt).toBeLessThan(5_000);
      expect(service.output()).toContain('shutting down');
    } finally {
      service.child.kill('SIGKILL');
    }
  }, 120_000);

  it('shutdown is bounded: a request that never completes does not hold the process past 10 s (exit code 1)', async () => {
    const service = await startCompiled();
    try {
      const stuck = openRequest(service.port, '{"clientId":"never-finished"}');
      await stuck.headersSent;
      stuck.socket.write('{"clientId"'); // and never the rest
      await new Promise((r) => setTimeout(r, 200));
      const sentAt = Date.now();
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(1);
      const took = Date.now() - sentAt;
      expect(took).toBeGreaterThanOrEqual(9_500);
      expect(took).toBeLessThan(14_000);
      stuck.socket.destroy();
    } finally {
      service.child.kill('SIGKILL');
    }
  }, 120_000);
});

/** The compiled service (`node <outDir>/main.js`, production mode, embedded database in memory). */
async function startCompiled() {
  const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      MODE: 'production',
      ADMIN_TOKEN: 'prod-admin-Zq7xK2mR9vT4wB8nL3pF6hJ1x',
      DATA_DIR: 'memory://',
      // Production refuses the embedded database unless told so (issue 25): this test has no PostgreSQL.
      ALLOW_EMBEDDED_DATABASE: 'true',
      PORT: '0',
      // Production needs its provider (nothing listens there: these tests make no payment).
      ...providerEnv(),
      // The stages after the drain delay (production's default serves 5 s more after SIGTERM:
      // test/deployment/graceful-shutdown.test.ts).
      SHUTDOWN_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        }
      }, 100);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`the service exited at start:\n${output}`));
      });
    });
    return { child, port, exited, output: () => output };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** A raw HTTP/1.1 token request whose headers are sent; the caller writes the body when it wants. */
function openRequest(port: number, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  const headersSent = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      socket.write(`POST /api/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      resolve();
    });
    socket.once('error', reject);
  });
  let text = '';
  socket.on('data', (d) => (text += d));
  // Resolves with what the server sent once it sent a whole answer (or closed the connection).
  const answer = new Promise<string>((resolve) => {
    socket.on('data', () => {
      if (/\r\n\r\n[\s\S]*\}/.test(text)) resolve(text);
    });
    socket.on('close', () => resolve(text));
  });
  socket.on('error', () => {});
  return { socket, headersSent, answer };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
