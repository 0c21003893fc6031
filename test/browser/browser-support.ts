import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; Playwright's own browser builds cannot be downloaded here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM);
export const SCREENSHOTS = path.resolve('test-results/portal');

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless chromium with a fresh profile (deleted by `close`). */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    locale: 'en-US',
    viewport: { width: 1280, height: 860 },
    // axe is injected into pages whose CSP allows only same-origin scripts.
    bypassCSP: true,
    timeout: 60_000,
  });
  context.setDefaultTimeout(15_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core's serious and critical violations on the page (an empty list passes). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = (await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }))) as axe.AxeResults;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

export const PHONE_WIDTH = 390;

/**
 * Desktop and 390 px phone screenshots of the page as it is now; answers how wide the page is on the
 * phone (wider than the screen means the reader has to scroll sideways).
 */
export async function screenshots(page: Page, name: string): Promise<{ phoneWidth: number }> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  const phoneWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
  return { phoneWidth };
}
