import { existsSync, mkdirSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.resolve('artifacts/docs-getting-started.png');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`test/docs/docs-page.test.ts: skipped, ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)`);

describe('/docs', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
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
});
