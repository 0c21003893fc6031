import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticHolder } from '../../src/network/sandbox/key-directory.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { chromiumMissing, CHROMIUM, launchBrowser, PHONE_WIDTH, screenshots, seriousViolations } from './browser-support.ts';

if (chromiumMissing && process.env.PORTAL_BROWSER_REQUIRED) {
  throw new Error(`PORTAL_BROWSER_REQUIRED is set but there is no chromium at ${CHROMIUM}`);
}
if (chromiumMissing) {
  console.warn(`Portal browser suite skipped: no chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it).`);
}

const MEMBER = { email: 'ana@padaria.example', password: 'a long enough password' };
const OPERATOR = { email: 'ops@example.com', password: 'operator password' };

describe.skipIf(chromiumMissing)('the portal in a real browser (chromium)', () => {
  let h: Harness;
  let base: string;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let page: Page;
  let accountId: number;
  let foreignTransactionId: string;

  /** Opens a page, checks it with axe (no serious or critical violation) and saves its screenshots. */
  async function visit(path: string, name: string) {
    const res = await page.goto(base + path);
    expect(res?.status(), path).toBe(200);
    await check(name);
  }
  async function check(name: string) {
    expect(await seriousViolations(page), name).toEqual([]);
    const { phoneWidth } = await screenshots(page, name);
    expect(phoneWidth, `${name} is wider than a ${PHONE_WIDTH} px phone`).toBeLessThanOrEqual(PHONE_WIDTH);
  }
  async function signIn(email: string, password: string) {
    await page.goto(base + '/portal/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const account = await h.createAccount({ name: 'Padaria Central', funds: 1234.56 });
    accountId = account.id;
    const other = await h.createAccount({ name: 'Outra Conta', funds: 99 });
    foreignTransactionId = (await h.c.db.selectFrom('transactions').select('transaction_id').where('account_id', '=', other.id).executeTakeFirstOrThrow()).transaction_id;
    expect((await h.admin('POST', '/admin/operators', OPERATOR)).statusCode).toBe(201);
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('invitation: the member sets a password on the one-time page', async () => {
    const invited = await h.admin('POST', `/admin/accounts/${accountId}/members`, { email: MEMBER.email });
    const path = new URL(invited.json().invitationUrl).pathname;
    await visit(path, 'invitation');
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(/\/portal\/sign-in\?done=password/);
    await check('sign-in');
  });

  it('sign-in lands on Home with the balance in R$ 1.234,56 form and the member navigation', async () => {
    await signIn(MEMBER.email, MEMBER.password);
    await page.waitForURL(base + '/portal');
    await expect.poll(() => page.getByText('R$ 1.234,56').count()).toBeGreaterThan(1);
    for (const name of ['Home', 'Transactions', 'Charges', 'Payouts', 'Webhooks', 'Credentials', 'Certificates', 'MED']) {
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    await check('home');
  });

  it('transactions: list, filter and detail', async () => {
    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await page.waitForURL(/\/portal\/transactions$/);
    await page.getByLabel('Type').selectOption('PAYMENT');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=PAYMENT/);
    await check('transactions');
    await page.locator('tbody a').first().click();
    await page.waitForURL(/\/portal\/transactions\/[0-9a-f-]{36}$/);
    expect(await page.getByText('End-to-end id').count()).toBe(1);
    await check('transaction-detail');
  });

  it('charges: create one, see the QR code, and its status turns Confirmed without a reload', async () => {
    await visit('/portal/charges', 'charges');
    await page.getByLabel('Value (R$)').fill('25,50');
    await page.getByLabel('Description').fill('Bolo de cenoura');
    await page.getByRole('button', { name: 'Create charge' }).click();
    await page.waitForURL(/\/portal\/charges\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('img', { name: /PIX QR code for R\$ 25,50/ }).count()).toBe(1);
    expect(await page.getByLabel('PIX copy and paste').inputValue()).toMatch(/^000201/);
    await check('charge-detail');
    const id = page.url().split('/').pop()!;
    expect((await h.admin('POST', `/sandbox/charges/${id}/pay`, { accountId })).statusCode).toBe(200);
    await page.getByRole('status').getByText('Confirmed').waitFor({ timeout: 10_000 });
  });

  it('payouts: the confirmation shows the holder and the bank before the money moves', async () => {
    const key = await h.admin('POST', '/sandbox/dict/keys', { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria Souza', document: cpf(31337), ispb: '60746948' });
    await visit('/portal/payouts', 'payouts');
    await page.getByLabel('Key type').selectOption('EMAIL');
    await page.getByLabel('PIX key').fill('maria@example.com');
    await page.getByLabel('Amount (R$)').fill('10,00');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText('Maria Souza').waitFor();
    expect(await page.getByText(key.json().bankName).count()).toBeGreaterThan(0);
    await check('payout-confirm');
    await page.getByRole('button', { name: 'Send R$ 10,00' }).click();
    await page.waitForURL(/\/portal\/transactions\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('R$ 10,00');
  });

  // Issue 21 item 1: keys nobody registered (the sandbox directory invents their holder, without a document).
  for (const { label, keyType, key, dict } of [
    { label: 'Email', keyType: 'EMAIL', key: 'ninguem.registrou@exemplo.com.br', dict: { type: 'EMAIL' as const, normalized: 'ninguem.registrou@exemplo.com.br' } },
    { label: 'Phone', keyType: 'PHONE', key: '11976543210', dict: { type: 'PHONE' as const, normalized: '+5511976543210' } },
    { label: 'Random key', keyType: 'RANDOM', key: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', dict: { type: 'EVP' as const, normalized: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' } },
  ]) {
    it(`payouts: an unregistered ${keyType} key is reviewed and paid, ending Confirmed`, async () => {
      const holder = syntheticHolder(dict, {});
      await visit('/portal/payouts', `payouts-${keyType}`);
      await page.getByLabel('Key type').selectOption({ label });
      await page.getByLabel('PIX key').fill(key);
      await page.getByLabel('Amount (R$)').fill('4,50');
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByText(holder.name!).waitFor();
      expect(await page.locator('#holder-bank').textContent()).toBe(holder.bank.name);
      expect(await page.locator('#holder-document').textContent()).toBe('Not given by the key directory');
      await check(`payout-confirm-${keyType}`);
      await page.getByRole('button', { name: 'Send R$ 4,50' }).click();
      await page.waitForURL(/\/portal\/transactions\/[0-9a-f-]{36}$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('R$ 4,50');
      await h.advance(2); // the sandbox network settles it
      await page.reload();
      await page.getByText('Confirmed', { exact: true }).first().waitFor();
      expect(await page.getByText(holder.name!).count()).toBeGreaterThan(0);
      const id = page.url().split('/').pop()!;
      const row = await h.c.db.selectFrom('transactions').select(['status', 'pix_key']).where('transaction_id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'CONFIRMED', pix_key: key });
    });
  }

  it('webhooks: add a URL with a header, reveal the secret', async () => {
    await visit('/portal/webhooks', 'webhooks');
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.example.com/pix');
    await page.getByLabel('Custom headers').fill('X-Token: abc');
    await page.getByRole('button', { name: 'Add URL' }).click();
    await page.getByRole('cell', { name: 'https://hooks.example.com/pix' }).first().waitFor();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
    await check('webhooks-secret');
  });

  it('webhooks: rotate the signing secret, send a test event and read each URL\'s answer', async () => {
    const rx = await startReceiver();
    try {
      expect((await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType: 'med_created', url: rx.url('/med') })).statusCode).toBe(201);
      await visit('/portal/webhooks', 'webhooks-tools');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('status').filter({ hasText: 'New secret made' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toBe((await h.admin('GET', `/admin/accounts/${accountId}/webhook-secret`)).json().secret);
      await check('webhooks-rotated');
      await page.getByLabel('Event to test').selectOption('med_created');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('table', { name: 'Test event result' }).getByRole('cell', { name: rx.url('/med') }).waitFor();
      expect(await page.getByRole('table', { name: 'Test event result' }).textContent()).toContain('200');
      expect(JSON.parse(rx.to('/med')[0]!.body)).toMatchObject({ event: 'MedCreated' });
      await check('webhooks-tested');
    } finally {
      await rx.close();
    }
  });

  it("webhook deliveries: a transaction's attempt log, and resending one delivery", async () => {
    const rx = await startReceiver();
    try {
      rx.on('/flaky', (_req, nth) => (nth === 1 ? { status: 503 } : { status: 200 }));
      expect((await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType: 'cash_in', url: rx.url('/flaky') })).statusCode).toBe(201);
      const received = (await h.deposit(accountId, 5)) as { transactionId: string };
      await h.c.webhookRelay.runDue();
      await visit(`/portal/transactions/${received.transactionId}`, 'transaction-deliveries');
      const log = page.getByText(`Attempt log of ${rx.url('/flaky')} (1)`);
      await log.click();
      expect(await page.getByRole('cell', { name: '503', exact: true }).count()).toBe(1);
      await page.getByRole('button', { name: `Resend to ${rx.url('/flaky')}` }).click();
      await page.getByText(`Attempt log of ${rx.url('/flaky')} (2)`).click();
      expect(await page.getByRole('cell', { name: '200', exact: true }).count()).toBe(1);
      expect(rx.to('/flaky')).toHaveLength(2);
      await check('transaction-deliveries-resent');
    } finally {
      await rx.close();
    }
  });

  it('credentials: the secret is shown once with a copy button', async () => {
    await visit('/portal/credentials', 'credentials');
    await page.getByRole('button', { name: 'Create credential' }).click();
    const secret = await page.getByLabel('clientSecret').inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The copy button puts the secret on the clipboard.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.locator('[data-copy="client-secret"]').click();
    await page.locator('[data-copy="client-secret"]', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await check('credentials-created');
    // Shown once: the list no longer holds it.
    await page.goto(base + '/portal/credentials');
    expect(await page.content()).not.toContain(secret);
  });

  it('certificates: the service makes a key and certificate to download', async () => {
    await visit('/portal/certificates', 'certificates');
    await page.getByRole('button', { name: 'Make key and certificate' }).click();
    expect(await page.getByRole('link', { name: 'Download private key' }).count()).toBe(1);
    await check('certificates-made');
    // Upload a CSR file: the service's CA signs it and the certificate joins the list.
    const { webcrypto } = await import('node:crypto');
    const x509 = await import('@peculiar/x509');
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=uploaded-in-chromium', keys, signingAlgorithm: alg });
    await page.getByLabel('Or upload a PEM file').setInputFiles({ name: 'backend.csr', mimeType: 'application/x-pem-file', buffer: Buffer.from(csr.toString('pem')) });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByRole('link', { name: 'Download certificate' }).waitFor();
    expect(await page.getByRole('cell', { name: 'CN=uploaded-in-chromium' }).count()).toBe(1);
  });

  it('sandbox tools and MED: open a MED on a received PIX and see it listed', async () => {
    await visit('/portal/sandbox', 'sandbox-tools');
    await page.getByRole('button', { name: 'Open MED' }).click();
    await page.getByText('MED opened.').waitFor();
    await visit('/portal/med', 'med');
    expect(await page.getByText('Open', { exact: true }).count()).toBeGreaterThan(0);
  });

  it("isolation: another account's transaction answers 404", async () => {
    const res = await page.goto(`${base}/portal/transactions/${foreignTransactionId}`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    expect((await page.goto(`${base}/portal/admin/accounts`))?.status()).toBe(404);
  });

  it('CSRF: a state-changing request without the token is refused and the session stays', async () => {
    await page.goto(base + '/portal');
    const status = await page.evaluate(async () => (await fetch('/portal/sign-out', { method: 'POST', body: new URLSearchParams({ _csrf: 'forged' }) })).status);
    expect(status).toBe(403);
    expect((await page.goto(base + '/portal'))?.url()).toBe(base + '/portal');
  });

  it('language: the switch to Português is remembered', async () => {
    await page.getByRole('link', { name: 'Português' }).click();
    await page.getByRole('link', { name: 'Início', exact: true }).waitFor();
    expect(await page.getByText('R$ 1.').count()).toBeGreaterThan(0);
    await page.goto(base + '/portal/transactions');
    expect(await page.getByRole('link', { name: 'Transações', exact: true }).count()).toBe(1);
    await check('transactions-pt-BR');
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('link', { name: 'Transactions', exact: true }).waitFor();
  });

  it('sign-out ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/portal\/sign-in$/);
    await page.goto(base + '/portal');
    expect(page.url()).toContain('/portal/sign-in');
  });

  it('operators: accounts, one account, audit log and system', async () => {
    await signIn(OPERATOR.email, OPERATOR.password);
    await page.waitForURL(/\/portal\/admin\/accounts$/);
    for (const name of ['Accounts', 'Audit log', 'System']) {
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    await check('admin-accounts');
    await page.getByRole('link', { name: 'Padaria Central' }).click();
    await page.waitForURL(/\/portal\/admin\/accounts\/\d+$/);
    await page.getByLabel('Per day (R$)').fill('25.000,00');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Limits saved.').waitFor();
    await check('admin-account');
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByRole('cell', { name: 'account.limits' }).first().waitFor();
    expect(await page.getByText('limits.daily: R$ 20.000,00 → R$ 25.000,00').count()).toBe(1);
    await check('admin-audit');
    await visit('/portal/admin/system', 'admin-system');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/portal\/sign-in$/);
  });

  it('throttling: after 10 failed sign-ins the 11th attempt is refused with a wait', async () => {
    for (let i = 0; i < 10; i++) {
      await signIn(MEMBER.email, `wrong password ${i}`);
      await page.getByRole('alert').getByText('Email or password is incorrect.').waitFor();
    }
    await signIn(MEMBER.email, MEMBER.password);
    await page.getByRole('alert').getByText(/Too many failed attempts/).waitFor();
    await check('sign-in-throttled');
  });
});
