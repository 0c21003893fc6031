import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { chromiumMissing, CHROMIUM, launchBrowser, PHONE_WIDTH, screenshots, seriousViolations } from './browser-support.ts';

if (chromiumMissing && process.env.PORTAL_BROWSER_REQUIRED) {
  throw new Error(`PORTAL_BROWSER_REQUIRED is set but there is no chromium at ${CHROMIUM}`);
}

const MEMBER = { email: 'caixa@mercado.example', password: 'a long enough password' };
/** The code an authenticator app shows (computed here, as the app does). */
const codeNow = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** RFC 4180 records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') record.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += ch;
  }
  if (field !== '' || record.length) record.push(field), records.push(record);
  return records;
}

/** Issue 30 items 1 and 2 in Debian's chromium: keys as pasted, refund, CSV export, two-factor sign-in. */
describe.skipIf(chromiumMissing)('the portal back office in a real browser (chromium)', () => {
  let h: Harness;
  let base: string;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let page: Page;
  let accountId: number;

  async function check(name: string) {
    expect(await seriousViolations(page), name).toEqual([]);
    const { phoneWidth } = await screenshots(page, name);
    expect(phoneWidth, `${name} is wider than a ${PHONE_WIDTH} px phone`).toBeLessThanOrEqual(PHONE_WIDTH);
  }
  async function passwordStep() {
    await page.goto(base + '/portal/sign-in');
    await page.getByLabel('Email').fill(MEMBER.email);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  async function signOut() {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/portal\/sign-in$/);
  }

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    accountId = (await h.createAccount({ name: 'Mercado Central', funds: 1000 })).id;
    const invited = await h.admin('POST', `/admin/accounts/${accountId}/members`, { email: MEMBER.email });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(base + new URL(invited.json().invitationUrl).pathname);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(/\/portal\/sign-in\?done=password/);
    await passwordStep();
    await page.waitForURL(base + '/portal');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  for (const { chosen, pasted, key, read } of [
    { chosen: undefined, pasted: '+55 11 98765-4321', key: '11987654321', read: 'Phone' },
    { chosen: undefined, pasted: '+5511987654321', key: '11987654321', read: 'Phone' },
    { chosen: undefined, pasted: '(11) 98765-4321', key: '11987654321', read: 'Phone' },
    { chosen: 'Phone', pasted: '11 98765 4321', key: '11987654321', read: 'Phone' },
    { chosen: undefined, pasted: '111.444.777-35', key: '11144477735', read: 'CPF / CNPJ' },
    { chosen: undefined, pasted: '11.222.333/0001-81', key: '11222333000181', read: 'CPF / CNPJ' },
    { chosen: undefined, pasted: ' Maria.Souza@Example.COM ', key: 'maria.souza@example.com', read: 'Email' },
    { chosen: undefined, pasted: '7D9F3C1A-2B4E-4F6A-8C0D-1E2F3A4B5C6D', key: '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d', read: 'Random key' },
  ]) {
    it(`Send a PIX: ${JSON.stringify(pasted)} is reviewed as ${key} and paid, ending Confirmed`, async () => {
      await page.goto(base + '/portal/payouts');
      if (chosen) await page.getByLabel('Key type').selectOption({ label: chosen });
      await page.getByLabel('PIX key').fill(pasted);
      await page.getByLabel('Amount (R$)').fill('2,00');
      await page.getByRole('button', { name: 'Review' }).click();
      await page.locator('#review-key').waitFor();
      expect(await page.locator('#review-key').textContent()).toBe(key);
      expect(await page.locator('#review-key-type').textContent()).toBe(read);
      await page.getByRole('button', { name: 'Send R$ 2,00' }).click();
      await page.waitForURL(/\/portal\/transactions\/[0-9a-f-]{36}$/);
      await h.advance(2);
      await page.reload();
      await page.getByText('Confirmed', { exact: true }).first().waitFor();
      const row = await h.c.db.selectFrom('transactions').select(['status', 'pix_key', 'kind']).where('transaction_id', '=', page.url().split('/').pop()!).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'CONFIRMED', pix_key: key, kind: 'WITHDRAW' });
    });
  }

  it('a key both CPF and mobile asks for its type; the Portuguese page refuses a foreign phone in Portuguese', async () => {
    await page.goto(base + '/portal/payouts');
    await page.getByLabel('PIX key').fill('11987654374');
    await page.getByLabel('Amount (R$)').fill('2,00');
    await page.getByRole('button', { name: 'Review' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('PIX key: 11987654374 can be a CPF or a phone number. Choose its type and review again.');
    await check('payout-ambiguous-key');
    await page.goto(base + '/portal/language/pt-BR?next=/portal/payouts');
    await page.waitForURL(/\/portal\/payouts$/);
    await page.getByLabel('Chave PIX').fill('+1 415 555 0100');
    await page.getByLabel('Valor (R$)').fill('2,00');
    await page.getByRole('button', { name: 'Revisar' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Chave PIX: só números de celular do Brasil (+55) podem ser chaves PIX.');
    await check('payout-foreign-phone-pt');
    await page.goto(base + '/portal/language/en?next=/portal');
  });

  it('refund a received PIX: amount and reason, the confirmation, and the refund settles', async () => {
    const received = (await h.deposit(accountId, 40)) as { transactionId: string };
    await page.goto(`${base}/portal/transactions/${received.transactionId}`);
    await page.getByRole('link', { name: 'Refund', exact: true }).click();
    await page.waitForURL(/\/refund$/);
    expect(await page.locator('#refundable').textContent()).toBe('R$ 40,00');
    await check('refund-start');
    await page.getByLabel('Amount to refund (R$)').fill('15,00');
    await page.getByLabel('Reason (optional)').fill('Produto em falta');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Confirm the refund' }).waitFor();
    await check('refund-confirm');
    await page.getByRole('button', { name: 'Refund R$ 15,00' }).click();
    await page.waitForURL(/\/portal\/transactions\/[0-9a-f-]{36}$/);
    expect(page.url()).not.toContain(received.transactionId);
    await h.advance(2);
    await page.reload();
    await page.getByText('Confirmed', { exact: true }).first().waitFor();
    const row = await h.c.db.selectFrom('transactions').select(['kind', 'status', 'original_amount']).where('transaction_id', '=', page.url().split('/').pop()!).executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'REFUND_IN', status: 'CONFIRMED', original_amount: 1500 });
    // More than the rest is refused with refund-in's message.
    await page.goto(`${base}/portal/transactions/${received.transactionId}/refund`);
    await page.getByLabel('Amount to refund (R$)').fill('25,01');
    await page.getByRole('button', { name: 'Review' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('The refund amount is above what is still refundable of the original PIX.');
  });

  it('export CSV: the download has the list filters, UTF-8, ISO dates, dot-decimal amounts', async () => {
    await page.goto(base + '/portal/transactions');
    await page.getByLabel('Type').selectOption('WITHDRAW');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=WITHDRAW/);
    await check('transactions-export');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^transactions-.*\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const [header, ...rows] = parseCsv(text);
    expect(header![0]).toBe('transactionId');
    expect(rows.length).toBe(8);
    for (const r of rows) {
      expect(r[5]).toBe('WITHDRAW');
      expect(r[7]).toBe('2.00');
      expect(r[3]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('two-factor: enrol with a computed code, sign in with the app\'s code, a recovery code works once', async () => {
    await page.goto(base + '/portal');
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(/\/portal\/security$/);
    await check('security-off');
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code to add this account to an authenticator app' }).waitFor();
    await check('two-factor-enrol');
    const secret = (await page.locator('#setup-key').textContent())!.replaceAll(' ', '');
    const enrolCode = codeNow(secret);
    await page.getByLabel('Authentication code').fill(enrolCode);
    await page.getByRole('button', { name: 'Confirm code' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const codes = await page.locator('#recovery-code-list li').allTextContents();
    expect(codes).toHaveLength(10);
    await check('two-factor-recovery-codes');
    await page.getByRole('link', { name: 'Continue' }).click();
    await signOut();

    // Password, then the app's (next) code.
    await passwordStep();
    await page.waitForURL(/\/portal\/sign-in\/second-step$/);
    await check('two-factor-second-step');
    await page.getByLabel('Authentication code').fill(codeNow(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(base + '/portal');
    await signOut();

    // A recovery code signs in once.
    await passwordStep();
    await page.waitForURL(/second-step$/);
    await page.getByLabel('Authentication code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(base + '/portal');
    await signOut();
    await passwordStep();
    await page.waitForURL(/second-step$/);
    await page.getByLabel('Authentication code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Authentication code: the code is not right, or was already used. Try the current one.');
    expect(page.url()).toMatch(/second-step$/);
    await page.getByLabel('Authentication code').fill(codes[1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(base + '/portal');
  });
});
