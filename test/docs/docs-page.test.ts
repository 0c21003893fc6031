import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../deployment/instances-kit.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.resolve('artifacts/docs-getting-started.png');
const hasChromium = existsSync(CHROMIUM);
// .ci/run sets PORTAL_BROWSER_REQUIRED (it installs chromium): there a missing browser fails instead of skipping.
if (!hasChromium && process.env.PORTAL_BROWSER_REQUIRED) throw new Error(`PORTAL_BROWSER_REQUIRED is set but there is no chromium at ${CHROMIUM}`);
if (!hasChromium) console.log(`test/docs/docs-page.test.ts: skipped, ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)`);

/** Every event of the document's 3.1 `webhooks` section. */
const WEBHOOK_EVENTS = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'];

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

  /** A page that may reach only this service: anything else is aborted and recorded, and so is every console error (a CSP refusal among them). */
  async function openPage(browser: Browser) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route((url) => !url.href.startsWith(base) && url.protocol !== 'data:', (route) => route.abort());
    return { page, outside, errors };
  }

  it('serves the reference, its script and its styles from the service itself (no CDN), scripts limited to this origin', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await fetch(`${base}${url}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      // The browser itself refuses a script or stylesheet from anywhere else.
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      const html = await page.text();
      expect(html).not.toMatch(/https?:\/\//);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/init.js']));
      for (const asset of assets) expect(asset.startsWith('/docs/assets/'), asset).toBe(true);
    }
    const script = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const styles = await fetch(`${base}/docs/assets/swagger-ui.css`);
    expect(styles.status).toBe(200);
    expect(styles.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await styles.text()).length).toBeGreaterThan(10_000);
    // Only the bundle's listed files: nothing else of node_modules is reachable.
    for (const other of ['package.json', 'index.html', '..%2F..%2Fpackage.json', 'swagger-initializer.js']) {
      expect((await fetch(`${base}/docs/assets/${other}`)).status, other).toBe(404);
    }
  });

  it.skipIf(!hasChromium)('opens on the getting-started page, then the reference and the 3.1 webhooks with their payloads (headless Chromium screenshot)', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const { page, outside, errors } = await openPage(browser);
      await page.goto(`${base}/docs`, { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
      await expect(page.getByRole('heading', { name: '1. Get a token with the demo certificate' }).isVisible()).resolves.toBe(true);
      // The guide comes first: it is above the first operation.
      const guideTop = (await page.getByRole('heading', { name: 'Getting started' }).boundingBox())!.y;
      const firstOperation = (await page.locator('.opblock').first().boundingBox())!.y;
      expect(guideTop).toBeLessThan(firstOperation);
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      console.log(`screenshot of /docs: ${SCREENSHOT}`);
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(20_000);

      // Then the reference: every family's tag in the navigation, then the Webhooks section.
      const tags = await page.locator('.opblock-tag-section h3').allInnerTexts();
      for (const tag of ['pix', 'payouts', 'cob', 'admin', 'sandbox']) expect(tags.map((t) => t.trim().split('\n')[0])).toContain(tag);
      // `webhook events` tags no path operation: it is not an empty section among them.
      expect(tags.some((t) => t.startsWith('webhook events'))).toBe(false);
      const webhooks = page.locator('.webhooks');
      await expect(webhooks.getByRole('heading', { name: 'Webhooks' }).isVisible()).resolves.toBe(true);
      const webhookPaths = await webhooks.locator('.opblock-summary-path').allInnerTexts();
      expect(webhookPaths.map((p) => p.trim())).toEqual(WEBHOOK_EVENTS);

      // One event opened: its signature headers and its documented payload (an example body and the schema's oneOf).
      await webhooks.locator('.opblock-summary-path', { hasText: /^cash_in$/ }).click();
      const cashIn = page.locator('#operations-webhooks-cashInWebhook');
      await cashIn.locator('.body-param__example, .highlight-code').first().waitFor({ timeout: 10_000 });
      const shown = await cashIn.innerText();
      for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(shown).toContain(header);
      expect(shown).toContain('"event": "CashIn"');
      expect(shown).toContain('2XX');
      await cashIn.getByRole('tab', { name: 'Schema' }).click();
      await cashIn.getByRole('button', { name: 'Expand all' }).first().click();
      // Swagger UI renders the expanded alternatives one after another: wait for the last field of the
      // second one (a slow CI machine read the box before it had rendered).
      const box = cashIn.locator('.model-box').first();
      await expect.poll(() => box.innerText(), { timeout: 15_000, interval: 200 }).toContain('debtorAccount');
      await expect.poll(() => box.innerText(), { timeout: 15_000, interval: 200 }).toContain('txId');
      const schema = await box.innerText();
      // Both alternatives, each with its own description and fields (TransactionEvent, ReceiveEvent).
      expect(schema).toContain('One of');
      expect(schema).toContain('cash_in, cash_out, refund_in and refund_out of the full family');
      expect(schema).toContain('cash_in of a paid cob (compatible family, version-2 envelope)');
      for (const field of ['feeAmount', 'parentTransaction', 'txId', 'debtorAccount']) expect(schema).toContain(field);
      await cashIn.screenshot({ path: path.resolve('artifacts/docs-webhook-cash-in.png') });

      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it.skipIf(!hasChromium)('"try it" sends real requests for every family: admin, sandbox (the documented example body), the account API and the compatible family', async () => {
    // The example deposit credits account 2.
    await h.createAccount();
    const account = await h.createAccount();
    expect(account.id).toBe(2);
    const accessToken = await h.tokenFor(account.id);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      /**
       * Opens an operation by the reference's own link, authorizes one security scheme with a token
       * (the Authorize dialog), presses Execute, and answers what the service said.
       */
      const tryIt = async (tag: string, operationId: string, method: string, path: string, scheme: 'admin' | 'bearer', token: string) => {
        const { page, outside, errors } = await openPage(browser);
        try {
          await page.goto(`${base}/docs#/${tag}/${operationId}`, { waitUntil: 'domcontentloaded' });
          await page.getByRole('heading', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
          await authorize(page, scheme, token);
          const operation = page.locator(`#operations-${tag}-${operationId}`);
          // The link opened the operation, and "Try it out" is on from the start.
          const execute = operation.getByRole('button', { name: 'Execute' });
          await execute.waitFor({ timeout: 10_000 });
          const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);
          await execute.click();
          const response = await answered;
          // The answer is shown on the page too.
          await operation.locator('.live-responses-table').waitFor({ timeout: 10_000 });
          const result = { status: response.status(), authorization: response.request().headers().authorization, body: await response.json() };
          expect(outside).toEqual([]);
          expect(errors).toEqual([]);
          return result;
        } finally {
          await page.close();
        }
      };

      const ledger = await tryIt('admin', 'ledgerCheck', 'GET', '/admin/ledger/check', 'admin', ADMIN_TOKEN);
      expect(ledger).toMatchObject({ status: 200, authorization: `Bearer ${ADMIN_TOKEN}`, body: { ok: true } });

      const deposit = await tryIt('sandbox', 'createDeposit', 'POST', '/sandbox/deposits', 'admin', ADMIN_TOKEN);
      expect(deposit).toMatchObject({ status: 201, authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(await h.balance(account.id)).toMatchObject({ available: 1000 });

      const balance = await tryIt('balance', 'getBalance', 'GET', '/api/balance', 'bearer', accessToken);
      expect(balance).toMatchObject({ status: 200, authorization: `Bearer ${accessToken}`, body: { netBalance: 1000 } });

      // The compatible family, with the same token.
      const compatible = await tryIt('compatible', 'getBalances', 'GET', '/accounts/balances', 'bearer', accessToken);
      expect(compatible).toMatchObject({ status: 200, authorization: `Bearer ${accessToken}` });
      expect(JSON.stringify(compatible.body)).toContain('1000');
    } finally {
      await browser.close();
    }
  }, 180_000);
});

/** The page's Authorize dialog: the value of one scheme, applied, and the dialog closed. */
async function authorize(page: Page, scheme: string, token: string) {
  await page.locator('.scheme-container').getByRole('button', { name: /Authorize/ }).click();
  const form = page.locator('.auth-container').filter({ has: page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
  await form.locator('input').fill(token);
  await form.getByRole('button', { name: 'Apply credentials' }).click();
  // Applied: the scheme now offers to log out.
  await form.getByRole('button', { name: /Logout|Remove authorization/ }).waitFor({ timeout: 5_000 });
  await page.locator('.modal-ux .close-modal').click();
}
