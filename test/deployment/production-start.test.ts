import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    expect(existsSync(path.join(outDir, 'network/sandbox/ispb-sample.csv'))).toBe(true);
    expect(existsSync(path.join(outDir, 'domain/money.test.js'))).toBe(false);
    // Relative imports point at the compiled files, so plain Node runs them (no tsx).
    expect(readFileSync(path.join(outDir, 'main.js'), 'utf8')).toContain('from "./app.js"');
  });

  it('the compiled service runs on plain Node in production mode, answers, and stops cleanly on SIGTERM', async () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts['start:prod']).toMatch(/NODE_ENV=production node .*dist\/main\.js/);
    expect(scripts.build).toContain('tsconfig.build.json');

    const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        MODE: 'production',
        ADMIN_TOKEN: 'prod-admin-Zq7xK2mR9vT4wB8nL3pF6hJ1x',
        DATA_DIR: 'memory://',
        PORT: '0',
        // Production needs its provider (nothing listens there: this test makes no payment).
        ...providerEnv(),
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
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      // Production mode: no sandbox routes.
      const sandbox = await fetch(`http://127.0.0.1:${port}/sandbox/clock/advance`, { method: 'POST' });
      expect(sandbox.status).toBe(404);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
