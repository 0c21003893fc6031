import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { AdjustableClock } from '../../src/domain/clock.ts';
import { DEMO_MEMBER_EMAIL, ensureDemoAccount, printDemo } from '../../src/services/sandbox/demo-account.ts';

describe('the demo member (sandbox)', () => {
  // A database on disk made from nothing (initdb and every migration): slow on a busy machine (issue 24).
  it('demo@example.com signs in with the password printed at start and sees the funded demo account', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-demo-'));
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'a-long-enough-admin-token', LOG_LEVEL: 'silent' });
    const c = await createContainer(config, { logger: pino({ level: 'silent' }), clock: new AdjustableClock({ frozen: true }) });
    try {
      const demo = await ensureDemoAccount(c);
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      printDemo(demo, config);
      const printed = write.mock.calls.map((call) => String(call[0])).join('');
      write.mockRestore();
      const line = /sign in as (\S+) \/ (\S+)/.exec(printed);
      expect(line?.[1]).toBe(DEMO_MEMBER_EMAIL);
      expect(printed).toContain('/portal');
      // A restart keeps the same password.
      expect((await ensureDemoAccount(c)).portalPassword).toBe(line?.[2]);

      const app = await buildApp(c);
      const page = await app.inject({ method: 'GET', url: '/portal/sign-in' });
      const cookie = String([page.headers['set-cookie']].flat()[0]).split(';')[0]!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const res = await app.inject({
        method: 'POST',
        url: '/portal/sign-in',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, email: line![1]!, password: line![2]! }).toString(),
      });
      expect(res.statusCode).toBe(303);
      const session = String([res.headers['set-cookie']].flat().find((h) => String(h).startsWith('pix_portal_session'))).split(';')[0]!;
      const home = await app.inject({ method: 'GET', url: '/portal', headers: { cookie: session, 'accept-language': 'en' } });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('Conta Demo');
      expect(home.body).toContain('R$ 10.000,00');
      await app.close();
    } finally {
      await c.close();
    }
  });
});
