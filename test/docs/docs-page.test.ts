import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../deployment/instances-kit.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.resolve('artifacts/docs-getting-started.png');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`test/docs/docs-page.test.ts: skipped, ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)`);

describe('/docs', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    // The document's `servers` (PUBLIC_URL) is where "try it" sends: this very listener.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    h = await startHarness({ env: { PUBLIC_URL: base } });
    await h.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => h.close());

  it('serves the reference and its script from the service itself (no CDN)', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const script = await fetch(`${base}/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(Number(script.headers.get('content-length') ?? (await script.arrayBuffer()).byteLength)).toBeGreaterThan(100_000);
  });

  it.skipIf(!hasChromium)('opens on the getting-started page, then the reference and the webhooks (headless Chromium screenshot)', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(base) && !request.url().startsWith('data:')) outside.push(request.url());
      });
      await page.route((url) => !url.href.startsWith(base) && url.protocol !== 'data:', (route) => route.abort());
      await page.goto(`${base}/docs`, { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
      await expect(page.getByRole('heading', { name: '1. Get a token with the demo certificate' }).isVisible()).resolves.toBe(true);
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      console.log(`screenshot of /docs: ${SCREENSHOT}`);
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(20_000);
      // Then the reference: every family's tag and the webhook events are in the navigation.
      const navigation = await page.locator('body').innerText();
      for (const tag of ['pix', 'payouts', 'cob', 'admin', 'sandbox', 'webhook events']) expect(navigation).toContain(tag);
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it.skipIf(!hasChromium)('"try it" sends real requests for every family: admin, sandbox (the documented example body), the account API and the compatible family', async () => {
    // The example deposit credits account 2.
    await h.createAccount();
    const account = await h.createAccount();
    expect(account.id).toBe(2);
    const accessToken = await h.tokenFor(account.id);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.route((url) => !url.href.startsWith(base) && url.protocol !== 'data:', (route) => route.abort());
      /** Opens an operation's "Test Request" client, gives it the bearer token, sends, and answers what the service said. */
      const tryIt = async (tag: string, method: string, path: string, token: string) => {
        // The reference's own link to the operation (it renders a section when it is reached).
        await page.goto(`${base}/docs#tag/${tag}/${method}${path}`, { waitUntil: 'domcontentloaded' });
        await page.getByRole('heading', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
        await page.getByRole('button', { name: `Test Request (${method.toLowerCase()} ${path})` }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: /^Authentication/ }).click();
        await dialog.getByPlaceholder('Token').first().fill(token);
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);
        await dialog.getByRole('button', { name: new RegExp(`^Send ${method.toLowerCase()} request`) }).click();
        const response = await answered;
        return { status: response.status(), authorization: response.request().headers().authorization, body: await response.json() };
      };

      const ledger = await tryIt('admin', 'GET', '/admin/ledger/check', ADMIN_TOKEN);
      expect(ledger).toMatchObject({ status: 200, authorization: `Bearer ${ADMIN_TOKEN}`, body: { ok: true } });

      const deposit = await tryIt('sandbox', 'POST', '/sandbox/deposits', ADMIN_TOKEN);
      expect(deposit.status).toBe(201);
      expect(await h.balance(account.id)).toMatchObject({ available: 1000 });

      const balance = await tryIt('balance', 'GET', '/api/balance', accessToken);
      expect(balance).toMatchObject({ status: 200, body: { netBalance: 1000 } });

      // The compatible family, with the same token.
      const compatible = await tryIt('compatible', 'GET', '/accounts/balances', accessToken);
      expect(compatible.status).toBe(200);
      expect(JSON.stringify(compatible.body)).toContain('1000');
    } finally {
      await browser.close();
    }
  }, 180_000);
});
