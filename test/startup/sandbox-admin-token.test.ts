import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { keepGeneratedAdminToken } from '../../src/services/sandbox/admin-token.ts';
import { demoBanner, type DemoAccount } from '../../src/services/sandbox/demo-account.ts';
import type { Cents } from '../../src/domain/money.ts';
import { freePort } from '../deployment/instances-kit.ts';

/** Issue 21 item 6: the sandbox keeps its generated admin token across restarts, and the banner tells the truth. */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-token-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sandbox = (env: Record<string, string>) => keepGeneratedAdminToken(loadConfig({ MODE: 'sandbox', LOG_LEVEL: 'silent', ...env }));

describe('the generated sandbox admin token is kept in DATA_DIR (decisions section 7)', () => {
  it('the first start writes it to DATA_DIR/admin-token (0600); the next start, which generated another, uses the kept one', () => {
    const dir = tempDir();
    const first = sandbox({ DATA_DIR: dir });
    const file = path.join(dir, 'admin-token');
    expect(first.adminTokenGenerated).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.adminToken);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Each loadConfig generates a new random token: without the file they would differ.
    expect(loadConfig({ MODE: 'sandbox', DATA_DIR: dir }).adminToken).not.toBe(first.adminToken);
    const second = sandbox({ DATA_DIR: dir });
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.adminTokenGenerated).toBe(true);
  });

  it('an explicit ADMIN_TOKEN wins and is never written down', () => {
    const dir = tempDir();
    const kept = sandbox({ DATA_DIR: dir }).adminToken;
    const explicit = sandbox({ DATA_DIR: dir, ADMIN_TOKEN: 'my-own-admin-token-1234' });
    expect(explicit.adminToken).toBe('my-own-admin-token-1234');
    expect(explicit.adminTokenGenerated).toBe(false);
    expect(readFileSync(path.join(dir, 'admin-token'), 'utf8').trim()).toBe(kept);
    const fresh = tempDir();
    sandbox({ DATA_DIR: fresh, ADMIN_TOKEN: 'my-own-admin-token-1234' });
    expect(existsSync(path.join(fresh, 'admin-token'))).toBe(false);
  });

  it('DATA_DIR=memory:// keeps nothing: every start has a new token and no file is written', () => {
    const cwd = process.cwd();
    const a = sandbox({ DATA_DIR: 'memory://' });
    const b = sandbox({ DATA_DIR: 'memory://' });
    expect(a.adminToken).not.toBe(b.adminToken);
    expect(existsSync(path.join(cwd, 'memory:', 'admin-token'))).toBe(false);
    expect(existsSync(path.join(cwd, 'admin-token'))).toBe(false);
  });

  it('a kept file that no longer holds a token (emptied by hand) is replaced; a folder not made yet is made; loose permissions are tightened', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'admin-token'), '\n');
    const replaced = sandbox({ DATA_DIR: dir });
    expect(readFileSync(path.join(dir, 'admin-token'), 'utf8').trim()).toBe(replaced.adminToken);
    expect(statSync(path.join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    const nested = path.join(tempDir(), 'not', 'yet');
    const made = sandbox({ DATA_DIR: nested });
    expect(readFileSync(path.join(nested, 'admin-token'), 'utf8').trim()).toBe(made.adminToken);
    const loose = tempDir();
    writeFileSync(path.join(loose, 'admin-token'), 'a-token-copied-in-by-hand-123\n', { mode: 0o644 });
    expect(sandbox({ DATA_DIR: loose }).adminToken).toBe('a-token-copied-in-by-hand-123');
    expect(statSync(path.join(loose, 'admin-token')).mode & 0o777).toBe(0o600);
  });
});

describe('the start-up banner', () => {
  const demo = (available: number, blocked = 0): DemoAccount => ({
    accountId: 1,
    balance: { available: available as Cents, blocked: blocked as Cents },
    portalPassword: 'portal-password',
    pixKey: '5f0c2b9e-4d3a-4b8f-9a7e-2c5d8e1f0a3b',
    clientId: '2b1e4c6a-8d0f-4e2a-9c4b-6d8f0a2c4e6f',
    clientSecret: 'secret-123',
    certPath: '/tmp/demo/client-cert.pem',
    keyPath: '/tmp/demo/client-key.pem',
  });

  it("prints the demo account's real balance, not the funding it started with", () => {
    const config = loadConfig({ MODE: 'sandbox', DATA_DIR: 'memory://', ADMIN_TOKEN: 'my-own-admin-token-1234' });
    expect(demoBanner(demo(998_950), config)).toContain('balance R$ 9,989.50 available\n');
    expect(demoBanner(demo(1_000_000), config)).toContain('balance R$ 10,000.00 available\n');
    expect(demoBanner(demo(0, 12_345), config)).toContain('balance R$ 0.00 available (R$ 123.45 blocked)\n');
    expect(demoBanner(demo(1), config)).not.toContain('funded with');
  });

  it('writes its URLs from PUBLIC_URL and says where the generated token is kept', () => {
    const dir = tempDir();
    const config = sandbox({ DATA_DIR: dir, PUBLIC_URL: 'https://pix.example.com' });
    const banner = demoBanner(demo(100), config);
    expect(banner).toContain('API:          https://pix.example.com   (docs: https://pix.example.com/docs)');
    expect(banner).toContain('curl -s -X POST https://pix.example.com/api/auth/token');
    expect(banner).toContain('Portal:       https://pix.example.com/portal');
    expect(banner).not.toContain('127.0.0.1');
    expect(banner).toContain(`Admin token:  ${config.adminToken}   (generated once, kept in ${path.join(dir, 'admin-token')}; set ADMIN_TOKEN to choose one)`);
    expect(demoBanner(demo(100), sandbox({ DATA_DIR: 'memory://' }))).toContain('(generated for this run: DATA_DIR=memory:// keeps nothing; set ADMIN_TOKEN to choose one)');
    expect(demoBanner(demo(100), sandbox({ DATA_DIR: dir, ADMIN_TOKEN: 'my-own-admin-token-1234' }))).toMatch(/Admin token: {2}my-own-admin-token-1234\n/);
  });
});

describe('a real restart (npm start twice on one DATA_DIR)', () => {
  /** Starts the sandbox, waits for its banner, answers what it printed; `stop` ends it. */
  async function start(dataDir: string, port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, MODE: 'sandbox', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('Then: curl')) {
          clearInterval(timer);
          resolve();
        }
      }, 100);
      void exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`exited with ${code}: ${output}`));
      });
    });
    return {
      output,
      token: /Admin token: {2}(\S+)/.exec(output)![1]!,
      async stop() {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  it('prints the same admin token, which the restarted service accepts', async () => {
    const dir = tempDir();
    const port = await freePort();
    const first = await start(dir, port);
    expect(await first.stop()).toBe(0);
    const second = await start(dir, port);
    try {
      expect(second.token).toBe(first.token);
      expect(second.output).toContain(`kept in ${path.join(dir, 'admin-token')}`);
      const res = await fetch(`http://127.0.0.1:${port}/admin/accounts/1`, { headers: { authorization: `Bearer ${first.token}` }, signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(200);
      expect((await res.json()).balance.available).toBe(10_000);
    } finally {
      await second.stop();
    }
  }, 240_000);
});
