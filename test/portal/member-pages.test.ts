import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cpf } from '../factories.ts';
import { portalClient, signedInMember } from './portal-client.ts';

// jsqr is CommonJS with a default export: its types and the ESM interop disagree on the shape.
const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

let h: Harness;
let member: ReturnType<typeof portalClient>;
let accountId: number;

beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ name: 'Padaria Central', funds: 1234.56 });
  accountId = account.id;
  member = await signedInMember(h, account.id, 'owner@padaria.example');
});
afterAll(() => h.close());

describe('member dashboard', () => {
  it('home shows available, blocked and total in R$ 1.234,56 form and the latest transactions', async () => {
    const res = await member.get('/portal');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Padaria Central');
    expect(res.body.match(/R\$ 1\.234,56/g)?.length).toBeGreaterThanOrEqual(2);
    expect(res.body).toContain('R$ 0,00');
    for (const link of ['Home', 'Transactions', 'Charges', 'Payouts', 'Webhooks', 'Credentials', 'Certificates', 'MED']) expect(res.body).toContain(`>${link}</a>`);
    expect(res.body).toContain('>Sign out</button>');
    expect(res.body).toContain('+ R$ 1.234,56');
  });

  it('every member page is in Portuguese by default and in English when Accept-Language asks for it', async () => {
    const pages = ['/portal', '/portal/transactions', '/portal/charges', '/portal/payouts', '/portal/webhooks', '/portal/credentials', '/portal/certificates', '/portal/med', '/portal/sandbox'];
    for (const path of pages) {
      const pt = await member.get(path, { 'accept-language': '' });
      expect(pt.statusCode, path).toBe(200);
      expect(pt.body, path).toContain('<html lang="pt-BR">');
      expect(pt.body, path).toContain('>Início</a>');
      expect(pt.body, path).toContain('>Sair</button>');
      const en = await member.get(path, { 'accept-language': 'en-US,en;q=0.9,pt;q=0.5' });
      expect(en.body, path).toContain('<html lang="en">');
      expect(en.body, path).toContain('>Home</a>');
      const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
      if (!['/portal/webhooks', '/portal/med'].includes(path)) expect(title(pt.body), path).not.toBe(title(en.body));
    }
  });

  it('transactions: filters of GET /api/transactions, a 31-day limit refused with a message, and the detail page', async () => {
    const list = await member.get('/portal/transactions?type=PAYMENT&status=CONFIRMED');
    expect(list.statusCode).toBe(200);
    const link = /href="(\/portal\/transactions\/[0-9a-f-]{36})"/.exec(list.body)?.[1];
    expect(link).toBeDefined();
    expect((await member.get('/portal/transactions?type=WITHDRAW')).body).toContain('No transactions in this period.');
    const tooLong = await member.get('/portal/transactions?startDate=2026-01-01&endDate=2026-03-01');
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('at most 31 days');
    const detail = await member.get(link!);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('R$ 1.234,56');
    expect(detail.body).toContain('End-to-end id');
    expect(detail.body).toMatch(/E\d{8}\d{12}[A-Za-z0-9]{11}/);
    expect(detail.body).toMatch(/\*\*\*\.\d{3}\.\d{3}-\*\*|\*\*\.\d{3}\.\d{3}\/\d{4}-\*\*/);
    expect((await member.get('/portal/transactions/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it("a transaction's detail shows amount, fee, net, status, end-to-end id, masked counterpart, its refunds and its MED", async () => {
    const account = await h.createAccount({ name: 'Loja Detalhe' });
    expect((await h.admin('PATCH', `/admin/accounts/${account.id}/fees`, { cashIn: { fixed: 0.5, percent: 0 } })).statusCode).toBe(200);
    const received = (await h.deposit(account.id, 100)) as { transactionId: string; endToEndId: string };
    const token = await h.tokenFor(account.id);
    const refund = await h.api('POST', `/api/pix/refund-in/${received.transactionId}`, token, { refundValue: 10, reason: 'troca' });
    expect(refund.statusCode).toBe(201);
    const med = await h.admin('POST', '/sandbox/med', { accountId: account.id, endToEndId: received.endToEndId, cause: 'SCAM' });
    expect(med.statusCode).toBe(201);

    const client = await signedInMember(h, account.id, 'detail@example.com');
    const page = await client.get(`/portal/transactions/${received.transactionId}`);
    expect(page.statusCode).toBe(200);
    const field = (label: string) => new RegExp(`<dt>${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(page.body)?.[1];
    expect(field('Amount')).toBe('R$ 100,00');
    expect(field('Fee')).toBe('R$ 0,50');
    expect(field('Net amount')).toBe('R$ 99,50');
    expect(field('Status')).toBe('Confirmed');
    expect(field('End-to-end id')).toBe(received.endToEndId);
    expect(field('Document')).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$|^\*\*\.\d{3}\.\d{3}\/\d{4}-\*\*$/);
    const refunds = page.body.slice(page.body.indexOf('id="refunds"'), page.body.indexOf('id="meds"'));
    expect(refunds).toContain(`href="/portal/transactions/${refund.json().transactionId}"`);
    expect(refunds).toContain('R$ 10,00');
    const meds = page.body.slice(page.body.indexOf('id="meds"'), page.body.indexOf('id="deliveries"'));
    expect(meds).toContain('<td>Open</td>');
    expect(meds).toContain('R$ ');

    // The MED page: status, requesting bank and the analysis deadline, 7 days after opening.
    const medPage = await client.get('/portal/med');
    const row = /<tbody>(<tr>.*?<\/tr>)/s.exec(medPage.body)?.[1] ?? '';
    expect(row).toContain('>Open</span>');
    const dates = [...row.matchAll(/(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2})/g)].map((m) => Date.UTC(+m[3]!, +m[2]! - 1, +m[1]!, +m[4]!, +m[5]!));
    expect(dates).toHaveLength(2);
    expect(dates[1]! - dates[0]!).toBe(7 * 86_400_000);
    expect(row).toContain('R$ 100,00');
  });

  it('transactions: pages of 25 with Next and Previous, without counting the window', async () => {
    const busy = await h.createAccount();
    for (let i = 0; i < 26; i++) await h.deposit(busy.id, 1 + i);
    const client = await signedInMember(h, busy.id, 'busy@example.com');
    const first = await client.get('/portal/transactions');
    expect(first.body.match(/href="\/portal\/transactions\/[0-9a-f-]{36}"/g)).toHaveLength(25);
    expect(first.body).toContain('rel="next"');
    expect(first.body).not.toContain('rel="prev"');
    const second = await client.get('/portal/transactions?page=2');
    expect(second.body.match(/href="\/portal\/transactions\/[0-9a-f-]{36}"/g)).toHaveLength(1);
    expect(second.body).toContain('rel="prev"');
    expect(second.body).not.toContain('rel="next"');
  });

  it('charges: creates one, shows its QR code and copy-and-paste code, and its status fragment', async () => {
    const bad = await member.post('/portal/charges', { value: '10,999', description: 'x', expiration: '60' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('at most 2 decimals');
    const created = await member.post('/portal/charges', { value: '1.500,25', description: 'Bolo de aniversário', expiration: '30' });
    expect(created.statusCode).toBe(303);
    const page = await member.get(String(created.headers.location));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('R$ 1.500,25');
    expect(page.body).toMatch(/id="brcode" class="mono" readonly="" value="000201/);
    // The QR image encodes exactly the copy-and-paste code.
    const png = PNG.sync.read(Buffer.from(/src="data:image\/png;base64,([^"]+)"/.exec(page.body)![1]!, 'base64'));
    const brcode = /id="brcode" class="mono" readonly="" value="([^"]+)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(brcode);
    expect(page.body).toContain('hx-trigger="every 2s"');
    const id = String(created.headers.location).split('/').pop()!;
    // Who created it is recorded with the charge (the audit log's money movements started in the portal).
    const created_audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'charge.create').where('target', '=', id).execute();
    expect(created_audit).toHaveLength(1);
    expect(created_audit[0]).toMatchObject({ account_id: accountId, actor: expect.stringMatching(/^member:\d+$/), after: { amount: 150025 } });
    // Paid by the sandbox's payer: the status fragment stops polling and says Confirmed.
    const paid = await h.admin('POST', `/sandbox/charges/${id}/pay`, { accountId });
    expect(paid.statusCode).toBe(200);
    const fragment = await member.get(`/portal/charges/${id}/status`);
    expect(fragment.body).toContain('Confirmed');
    expect(fragment.body).not.toContain('hx-trigger');
  });

  it('payouts: a confirmation step with the holder and bank, then the same cash-out as the API (once)', async () => {
    const doc = cpf(424242);
    const key = await h.admin('POST', '/sandbox/dict/keys', { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria Souza', document: doc, ispb: '60746948' });
    expect(key.statusCode).toBe(201);
    const bankName = key.json().bankName as string;
    const before = await h.balance(accountId);
    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'maria@example.com', amount: '10,00', description: 'Farinha' });
    expect(review.statusCode).toBe(200);
    expect(review.body).toContain('Maria Souza');
    expect(review.body).toContain(bankName);
    expect(await h.balance(accountId)).toEqual(before);
    const form = Object.fromEntries([...review.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
    const sent = await member.post('/portal/payouts', form);
    expect(sent.statusCode).toBe(303);
    const again = await member.post('/portal/payouts', form);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(sent.headers.location);
    // Who sent it is recorded with the payout, once (the second confirm sent nothing).
    const payoutId = String(sent.headers.location).split('/').pop()!;
    const sentAudit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'payout.send').where('account_id', '=', accountId).execute();
    expect(sentAudit).toHaveLength(1);
    expect(sentAudit[0]).toMatchObject({ target: payoutId, actor: expect.stringMatching(/^member:\d+$/), after: { amount: 1000, key: 'maria@example.com' } });
    const after = await h.balance(accountId);
    expect(before.available - after.available).toBeGreaterThanOrEqual(10); // BRL (admin API)
    expect(before.available - after.available).toBeLessThan(20);
    // The sandbox directory's key that is never found (+5511900000000; the form takes it without +55).
    const unknown = await member.post('/portal/payouts/review', { keyType: 'PHONE', key: '11900000000', amount: '1,00' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('The key was not found in the PIX key directory.');
    expect(await h.balance(accountId)).toEqual(after);
  });

  it('webhooks: add with headers, reveal the secret, remove', async () => {
    const added = await member.post('/portal/webhooks', { eventType: 'cash_in', url: 'https://hooks.example.com/pix', headers: 'X-Token: abc' });
    expect(added.statusCode).toBe(303);
    const page = await member.get('/portal/webhooks');
    expect(page.body).toContain('https://hooks.example.com/pix');
    const secret = await member.post('/portal/webhooks/secret');
    expect(secret.body).toMatch(/value="whsec_[A-Za-z0-9+/=]+"/);
    const badHeader = await member.post('/portal/webhooks', { eventType: 'cash_in', url: 'https://hooks.example.com/2', headers: 'no colon here' });
    expect(badHeader.statusCode).toBe(400);
    const id = /action="\/portal\/webhooks\/(\d+)\/remove"/.exec(page.body)![1]!;
    expect((await member.post(`/portal/webhooks/${id}/remove`)).statusCode).toBe(303);
    expect((await member.get('/portal/webhooks')).body).not.toContain('https://hooks.example.com/pix');
  });

  it('webhooks: at most 3 URLs per event; the 4th is refused with a message in the page language', async () => {
    for (const n of [1, 2, 3]) expect((await member.post('/portal/webhooks', { eventType: 'cash_out', url: `https://limit.example.com/${n}`, headers: '' })).statusCode).toBe(303);
    const fourth = await member.post('/portal/webhooks', { eventType: 'cash_out', url: 'https://limit.example.com/4', headers: '' });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.body).toContain('already has 3 active webhook URLs');
    const quarta = await member.post('/portal/webhooks', { eventType: 'cash_out', url: 'https://limit.example.com/4', headers: '' }, { 'accept-language': 'pt-BR' });
    expect(quarta.statusCode).toBe(400);
    expect(quarta.body).toContain('Este evento já possui 3 URLs de webhook ativas');
    // Another event still has room: the limit is per event.
    expect((await member.post('/portal/webhooks', { eventType: 'refund_in', url: 'https://limit.example.com/4', headers: '' })).statusCode).toBe(303);
    const page = await member.get('/portal/webhooks');
    expect(page.body.match(/<td>cash_out<\/td><td class="mono">https:\/\/limit\.example\.com\/\d<\/td>/g)).toHaveLength(3);
  });

  it('credentials: the secret is shown once, the credential can get a token until revoked', async () => {
    const created = await member.post('/portal/credentials');
    expect(created.statusCode).toBe(201);
    const clientId = /id="client-id" class="mono" readonly="" value="([^"]+)"/.exec(created.body)![1]!;
    const clientSecret = /id="client-secret" class="mono" readonly="" value="([^"]+)"/.exec(created.body)![1]!;
    expect((await member.get('/portal/credentials')).body).not.toContain(clientSecret);
    const cert = await h.admin('POST', `/admin/accounts/${accountId}/certificates`, {});
    const token = () => h.app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(cert.json().certificatePem) }, payload: { clientId, clientSecret } });
    expect((await token()).statusCode).toBe(201);
    expect((await member.post(`/portal/credentials/${clientId}/revoke`)).statusCode).toBe(303);
    expect((await token()).statusCode).toBe(401);
  });

  it('certificates: made here for download, listed with fingerprint, revoked', async () => {
    const made = await member.post('/portal/certificates/make');
    expect(made.statusCode).toBe(201);
    expect(made.body).toContain('download="client-key.pem"');
    const list = await member.get('/portal/certificates');
    const fingerprint = /action="\/portal\/certificates\/([0-9a-f]{64})\/revoke"/.exec(list.body)![1]!;
    expect(list.body).toContain(fingerprint);
    const bad = await member.post('/portal/certificates', { pem: 'not a pem' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('pem must be');
    expect((await member.post(`/portal/certificates/${fingerprint}/revoke`)).statusCode).toBe(303);
    expect((await member.get('/portal/certificates')).body).toContain('Revoked');
  });

  it("certificates: a CSR is signed by the service's CA, registered, and gets tokens", async () => {
    const { webcrypto, X509Certificate } = await import('node:crypto');
    const x509 = await import('@peculiar/x509');
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=padaria-backend', keys, signingAlgorithm: alg });
    const signed = await member.post('/portal/certificates', { pem: csr.toString('pem') });
    expect(signed.statusCode).toBe(201);
    const href = /download="client-cert.pem" href="data:application\/x-pem-file;charset=utf-8,([^"]+)"/.exec(signed.body)![1]!;
    const certPem = decodeURIComponent(href.replaceAll('&amp;', '&'));
    const cert = new X509Certificate(certPem);
    expect(cert.subject).toContain('CN=padaria-backend');
    expect(cert.issuer).toContain('client CA');
    const ca = await h.c.db.selectFrom('client_ca').select('certificate_pem').executeTakeFirstOrThrow();
    expect(cert.verify(new X509Certificate(ca.certificate_pem).publicKey)).toBe(true);
    const creds = (await h.admin('POST', `/admin/accounts/${accountId}/credentials`, {})).json();
    const token = await h.app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(certPem) }, payload: { clientId: creds.clientId, clientSecret: creds.clientSecret } });
    expect(token.statusCode).toBe(201);
    // A request whose signature does not match its key is refused, naming the field.
    const tampered = csr.toString('pem').replace(/([A-Za-z0-9+/]{10})([A-Za-z0-9+/])/, (_m, a: string, b: string) => a + (b === 'A' ? 'B' : 'A'));
    const bad = await member.post('/portal/certificates', { pem: tampered });
    expect(bad.statusCode).toBe(400);
  });

  it('certificates: a PEM file is uploaded (certificate or CSR); an oversized file or no PEM gets a 4xx naming the problem', async () => {
    const x509 = await import('@peculiar/x509');
    const { webcrypto } = await import('node:crypto');
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '0a1b2c', name: 'CN=uploaded-by-file', notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000 * 30), keys, signingAlgorithm: alg,
    });
    const uploaded = await member.upload('/portal/certificates', { pem: '' }, { pemFile: { name: 'client.pem', content: cert.toString('pem') } });
    expect(uploaded.statusCode).toBe(303);
    const list = await member.get('/portal/certificates');
    expect(list.body).toContain('CN=uploaded-by-file');
    const fingerprint = Buffer.from(await cert.getThumbprint('SHA-256', webcrypto as unknown as Crypto)).toString('hex');
    expect(list.body).toContain(fingerprint);

    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=csr-by-file', keys, signingAlgorithm: alg });
    const signed = await member.upload('/portal/certificates', {}, { pemFile: { name: 'request.csr', content: csr.toString('pem') } });
    expect(signed.statusCode).toBe(201);
    expect(signed.body).toContain('download="client-cert.pem"');
    expect((await member.get('/portal/certificates')).body).toContain('CN=csr-by-file');

    const notPem = await member.upload('/portal/certificates', {}, { pemFile: { name: 'photo.jpg', content: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) } });
    expect(notPem.statusCode).toBe(400);
    expect(notPem.body).toContain('pem must be');
    const huge = await member.upload('/portal/certificates', {}, { pemFile: { name: 'huge.pem', content: Buffer.alloc(200 * 1024, 65) } });
    expect(huge.statusCode).toBe(413);
    // Without the CSRF token, an upload is refused like any other form.
    const forged = await member.upload('/portal/certificates', { _csrf: 'forged' }, { pemFile: { name: 'client.pem', content: cert.toString('pem') } });
    expect(forged.statusCode).toBe(403);
  });

  it('MED: lists the infractions with status and the analysis deadline', async () => {
    const res = await member.get('/portal/med');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No infractions');
  });

  it("a foreign account's webhook, credential or certificate cannot be touched (404)", async () => {
    const other = await h.createAccount();
    const hook = await h.admin('POST', `/admin/accounts/${other.id}/webhooks`, { eventType: 'cash_in', url: 'https://other.example.com/x' });
    expect((await member.post(`/portal/webhooks/${hook.json().id}/remove`)).statusCode).toBe(404);
    const creds = await h.admin('POST', `/admin/accounts/${other.id}/credentials`, {});
    expect((await member.post(`/portal/credentials/${creds.json().clientId}/revoke`)).statusCode).toBe(404);
    const cert = await h.admin('POST', `/admin/accounts/${other.id}/certificates`, {});
    expect((await member.post(`/portal/certificates/${cert.json().fingerprint}/revoke`)).statusCode).toBe(404);
    expect((await h.admin('GET', `/admin/accounts/${other.id}/webhooks`)).json().metadata.total).toBe(1);
  });
});
