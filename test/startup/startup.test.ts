import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { DataDirLockedError, openDatabase } from '../../src/db/database.ts';
import { providerEnv } from '../provider-env.ts';
import { splitStatements } from '../../src/db/migrate.ts';
import { AdjustableClock } from '../../src/domain/clock.ts';
import { ensureDemoAccount } from '../../src/services/sandbox/demo-account.ts';
import pino from 'pino';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-start-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('embedded database folder', () => {
  it('refuses a second opening of one PGlite folder with a clear message, and frees it on close', async () => {
    const dir = tempDir();
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/already in use by another process/);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it('a second service process on the same DATA_DIR exits with that message', async () => {
    const dir = tempDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, MODE: 'sandbox', DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain('already in use by another process');
    } finally {
      await first.close();
    }
  }, 60_000);

  it('SIGTERM closes the service cleanly: exit code 0 and the folder free again', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, MODE: 'sandbox', DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('Get an access token')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    expect(stdout).toMatch(/clientSecret: \S{8,64}/);
    child.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const reopened = await openDatabase({ dataDir: dir });
    await reopened.close();
  }, 60_000);

  it('keeps data across restarts of the same folder', async () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'a-long-enough-admin-token', LOG_LEVEL: 'silent' });
    const c1 = await createContainer(config, { logger: pino({ level: 'silent' }) });
    const account = await c1.accounts.create({ name: 'Persist', document: '52998224725' });
    await c1.close();
    const c2 = await createContainer(config, { logger: pino({ level: 'silent' }) });
    expect((await c2.accounts.get(account.id)).name).toBe('Persist');
    await c2.close();
  });
});

describe('demo account (decisions section 1)', () => {
  it('is created once, funded with R$ 10,000.00, and its certificate, key and credentials are written and reused', async () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'a-long-enough-admin-token', LOG_LEVEL: 'silent' });
    const clock = new AdjustableClock({ start: new Date('2026-11-20T15:00:00Z'), frozen: true });
    const c = await createContainer(config, { logger: pino({ level: 'silent' }), clock });
    const first = await ensureDemoAccount(c);
    expect(first.certPath).toBe(path.join(dir, 'demo', 'client-cert.pem'));
    expect(existsSync(first.keyPath)).toBe(true);
    expect(readFileSync(first.certPath, 'utf8')).toMatch(/BEGIN CERTIFICATE/);
    const account = await c.accounts.get(first.accountId);
    expect(account).toMatchObject({ available: 1_000_000, blocked: 0, is_demo: true });
    const second = await ensureDemoAccount(c);
    expect(second).toEqual(first);
    expect((await c.accounts.get(first.accountId)).available).toBe(1_000_000);
    await c.close();
  });
});

describe('DATA_DIR=memory:// keeps nothing (issue 10 item 16)', () => {
  it('writes no file in the working directory: the demo certificate and key live in a private temp folder, removed on exit', async () => {
    const cwd = tempDir();
    const tsx = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsx, path.resolve('src/main.ts')], {
      cwd,
      env: { ...process.env, MODE: 'sandbox', DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('Get an access token')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${stderr}`)));
    });
    const certPath = /certificate: +(\S+)/.exec(stdout)![1]!;
    const keyPath = /private key: +(\S+)/.exec(stdout)![1]!;
    expect(readdirSync(cwd)).toEqual([]);
    const folder = path.dirname(certPath);
    expect(path.dirname(keyPath)).toBe(folder);
    expect(folder.startsWith(path.join(tmpdir(), 'pix-demo-'))).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readFileSync(certPath, 'utf8')).toMatch(/BEGIN CERTIFICATE/);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    child.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  }, 60_000);
});

describe('migrations', () => {
  it('split into statements, keeping quotes, dollar-quoted bodies and comments intact', () => {
    const text = `-- a comment; with a semicolon
CREATE TABLE a (x text DEFAULT 'it''s; fine');
CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
SELECT 2`;
    expect(splitStatements(text)).toEqual([
      "CREATE TABLE a (x text DEFAULT 'it''s; fine')",
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql',
      'SELECT 2',
    ]);
  });
});

describe('production refuses unsafe starts (issues 13 and 25)', () => {
  async function start(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, MODE: 'production', ADMIN_TOKEN: 'startup-admin-Zq7xK2mR9vT4wB8nL3pF6hJ1x', DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, stderr };
  }

  it('production with nothing set refuses to start (exit 1) and lists every problem in one message, without a stack', async () => {
    // Issue 25: DATABASE_URL first (no silent start on the embedded database), then the rest at once.
    const { code, stderr } = await start({ ADMIN_TOKEN: '', TLS_CERT_FILE: '/nonexistent/server-cert.pem', TLS_KEY_FILE: '/nonexistent/server-key.pem' });
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration: 5 problems (nothing was started; fix them all):\n');
    expect(stderr).toContain('  - DATABASE_URL is required in production mode: without it the ledger would live in the embedded database');
    expect(stderr).toContain('  - ADMIN_TOKEN is required in production mode (production needs at least 32 characters');
    expect(stderr).toContain('  - TLS_CERT_FILE cannot be read (no such file): /nonexistent/server-cert.pem');
    expect(stderr).toContain('  - TLS_KEY_FILE cannot be read (no such file): /nonexistent/server-key.pem');
    expect(stderr).toContain('  - PIX_NETWORK is required in production mode: set PIX_NETWORK=provider and PROVIDER_URL');
    expect(stderr).not.toMatch(/ENOENT|\n\s+at /);
  }, 60_000);

  it("a provider certificate that cannot be read stops the start, naming its variable", async () => {
    const { code, stderr } = await start({ ALLOW_EMBEDDED_DATABASE: 'true', ...providerEnv({ PROVIDER_CERT_FILE: '/nonexistent/provider-cert.pem' }) });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('Invalid configuration: PROVIDER_CERT_FILE cannot be read (no such file): /nonexistent/provider-cert.pem');
  }, 60_000);
});

