import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskDocument } from '../../../src/domain/documents.ts';
import { endToEndId } from '../../../src/domain/ids.ts';
import { cents } from '../../../src/domain/money.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { cnpj, cpf } from '../../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../harness.ts';
import { detailText, payoutConfirmationForm, portalClient, signedInMember } from '../../portal/portal-client.ts';
import { providerEnv, TEST_PROVIDER_WEBHOOK_SECRET } from '../../provider-env.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';

/**
 * Issue 21 item 1, production: the portal's "Send a PIX" through the provider adapter, in one process
 * against the scripted provider (the real one, B, in test/postgres/portal-provider-payouts.test.ts).
 * The provider's API has no key look-up: the confirmation says what is not known yet instead of
 * showing blanks, asks the recipient's CPF or CNPJ (its cash-out requires `details.document`), and
 * the provider's answer when the payment settles fills in who received it.
 */
let h: Harness;
let fake: FakeProvider;
let member: ReturnType<typeof portalClient>;
let accountId: number;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv({ PROVIDER_URL: fake.url, PROVIDER_RECONCILE_AFTER_S: '60' }) } });
  await h.runJobs(); // the start's webhook registration and statement check
  const account = await h.createAccount({ name: 'Padaria Central' });
  accountId = account.id;
  // Production has no sandbox deposits: the money arrives as a PIX received through the provider would.
  await h.c.deposits.deposit(account.id, cents(100_000), undefined, undefined, 'network:provider');
  member = await signedInMember(h, account.id, 'caixa@padaria.example');
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

async function notice(payload: Record<string, unknown>) {
  const body = JSON.stringify(payload);
  const res = await h.app.inject({
    method: 'POST',
    url: '/network/provider/webhooks',
    headers: { 'content-type': 'application/json', ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, `msg_portal_${++seq}`, new Date(), body) },
    payload: body,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}
const row = (transactionId: string) => h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();

const KEYS = [
  { keyType: 'DOCUMENT', key: cpf(881), provider: { keyType: 'DOCUMENT', key: cpf(881) } },
  { keyType: 'DOCUMENT', key: cnpj(882), provider: { keyType: 'DOCUMENT', key: cnpj(882) } },
  { keyType: 'EMAIL', key: 'loja.nova@pagamentos.example', provider: { keyType: 'EMAIL', key: 'loja.nova@pagamentos.example' } },
  { keyType: 'PHONE', key: '21998765432', provider: { keyType: 'PHONE', key: '21998765432' } },
  { keyType: 'RANDOM', key: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', provider: { keyType: 'RANDOM', key: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a' } },
];

describe('portal payouts through the provider adapter (production mode)', () => {
  for (const [i, key] of KEYS.entries()) {
    // A CPF or CNPJ key is its holder's document: nothing to ask. Any other key's holder is unknown to the provider.
    const asked = key.keyType !== 'DOCUMENT';
    it(`${key.keyType} ${key.key}: "not known until the payment settles", ${asked ? 'the CPF or CNPJ asked' : 'the key as the document'}, a valid cash-out sent, the receiver filled in by the CashOut notice`, async () => {
      const review = await member.post('/portal/payouts/review', { keyType: key.keyType, key: key.key, amount: '10,00', description: 'Fornecedor' });
      expect(review.statusCode, review.body.slice(0, 300)).toBe(200);
      expect(detailText(review.body, 'holder-name')).toBe('Not known until the payment settles');
      expect(detailText(review.body, 'holder-bank')).toBe('Not known until the payment settles');
      expect(review.body).not.toMatch(/<dd[^>]*>\s*<\/dd>/);
      const form = payoutConfirmationForm(review.body);
      if (!asked) {
        expect(detailText(review.body, 'holder-document')).toBe(maskDocument(key.key));
        expect(review.body).not.toContain('name="document"');
        const sent = await member.post('/portal/payouts', form);
        expect(sent.statusCode, sent.body.slice(0, 500)).toBe(303);
        const transactionId = String(sent.headers.location).split('/').pop()!;
        await h.runJobs();
        const request = fake.requests.filter((r) => r.path === '/api/pix/cash-out').find((r) => r.body.externalId === transactionId)!;
        expect(request.body).toEqual({ value: 10, externalId: transactionId, description: 'Fornecedor', details: { ...key.provider, name: 'Recebedor', document: key.key } });
        return;
      }
      expect(review.body).toContain('<label for="document">Recipient&#39;s CPF or CNPJ</label>');

      // Without the document (or with a wrong one) nothing is sent: the confirmation says why.
      const before = await h.balance(accountId);
      const missing = await member.post('/portal/payouts', { ...form, document: '', name: '' });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain("Give the recipient&#39;s CPF or CNPJ: the payment network needs it to pay this key.");
      const wrong = await member.post('/portal/payouts', { ...form, document: '123.456.789-00', name: '' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain('is not valid');
      expect(wrong.body).toContain('value="123.456.789-00"');
      expect(await h.balance(accountId)).toEqual(before);

      const document = i % 2 === 0 ? cpf(900 + i) : cnpj(900 + i);
      const typed = document.length === 11 ? `${document.slice(0, 3)}.${document.slice(3, 6)}.${document.slice(6, 9)}-${document.slice(9)}` : document;
      const sent = await member.post('/portal/payouts', { ...form, document: typed, name: 'Loja Destino' });
      expect(sent.statusCode, sent.body.slice(0, 500)).toBe(303);
      const transactionId = String(sent.headers.location).split('/').pop()!;
      const pendingPage = await member.get(`/portal/transactions/${transactionId}`);
      expect(pendingPage.body).toContain('Not known until the payment settles');
      await h.runJobs();
      const request = fake.requests.filter((r) => r.path === '/api/pix/cash-out').find((r) => r.body.externalId === transactionId)!;
      expect(request.body).toEqual({ value: 10, externalId: transactionId, description: 'Fornecedor', details: { ...key.provider, name: 'Loja Destino', document } });

      await notice({
        event: 'CashOut', status: 'CONFIRMED', transactionType: 'PIX', movementType: 'DEBIT', transactionId: `p-portal-${i}`, externalId: transactionId,
        endToEndId: endToEndId('E', '99999999', h.clock.now()), originalAmount: 10, feeAmount: 0, finalAmount: 10, errorCode: null, errorMessage: null,
        counterpart: { name: 'Loja Destino Comércio Ltda', document: '***.456.789-**', bank: { bankISPB: '60746948', bankName: 'Banco Bradesco S.A.', bankCode: '237' } },
      });
      const settled = await row(transactionId);
      expect(settled.status).toBe('CONFIRMED');
      // The provider's word on who received it; the document the member gave stays (unmasked inside).
      expect(settled.counterpart).toEqual({
        name: 'Loja Destino Comércio Ltda',
        document,
        bank: { bankISPB: '60746948', bankName: 'Banco Bradesco S.A.', bankCode: '237', accountBranch: null, accountNumber: null },
      });
      const page = await member.get(`/portal/transactions/${transactionId}`);
      expect(page.body).toContain('Loja Destino Comércio Ltda');
      expect(page.body).toContain('Banco Bradesco S.A.');
      expect(page.body).not.toContain('Not known until the payment settles');
    });
  }

  it('a payout whose notice never comes: reconciliation asks the provider, and its status answer fills in the receiver', async () => {
    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'sem.aviso@pagamentos.example', amount: '7,00', description: '' });
    const sent = await member.post('/portal/payouts', { ...payoutConfirmationForm(review.body), document: cpf(999), name: '' });
    expect(sent.statusCode).toBe(303);
    const transactionId = String(sent.headers.location).split('/').pop()!;
    await h.runJobs();
    const request = fake.requests.filter((r) => r.path === '/api/pix/cash-out').find((r) => r.body.externalId === transactionId)!;
    // The provider's API requires a name; none was given: the adapter's placeholder.
    expect(request.body.details).toEqual({ keyType: 'EMAIL', key: 'sem.aviso@pagamentos.example', name: 'Recebedor', document: cpf(999) });
    fake.transactions.set(transactionId, {
      id: 'p-polled', externalId: transactionId, type: 'WITHDRAW', status: 'CONFIRMED', originalAmount: 7, feeAmount: 0, finalAmount: 7, e2eId: endToEndId('E', '99999999', h.clock.now()),
      counterpartName: 'Maria Recebedora', counterpartDocument: '***.999.000-**', counterpartAccountBankCode: '341', counterpartAccountBranch: null, counterpartAccountNumber: null,
      counterpartAccountIspb: '60701190', counterpartAccountBankName: 'Itaú Unibanco S.A.', createdAt: '', updatedAt: '', processedAt: null,
    });
    await h.advance(61);
    const settled = await row(transactionId);
    expect(settled.status).toBe('CONFIRMED');
    expect(settled.counterpart).toMatchObject({ name: 'Maria Recebedora', document: cpf(999), bank: { bankISPB: '60701190', bankName: 'Itaú Unibanco S.A.', bankCode: '341' } });
  });

  it('the provider has no key look-up: every key answers "unknown holder", never "found" or "not found"', async () => {
    for (const key of [
      { type: 'EMAIL', normalized: 'ninguem@notfound.example' },
      { type: 'CPF', normalized: cpf(77) },
      { type: 'EVP', normalized: '00000000-0000-0000-0000-000000000000' },
    ] as const) {
      expect(await h.c.network.lookupKey(key)).toEqual({ status: 'unknown_holder', documentRequired: true });
    }
  });

  it('a key the provider refuses: the API and the portal both take it, and both end ERROR PIX_INVALID_PIX_KEY with the money back', async () => {
    const refusal = { status: 400, body: { statusCode: 400, code: 'PIX_INVALID_PIX_KEY', errorCode: 'PIX_INVALID_PIX_KEY', message: 'The key was not found in the PIX key directory.' } };
    const before = await h.balance(accountId);
    const token = await h.tokenFor(accountId);
    const api = await h.api('POST', '/api/pix/cash-out', token, { value: 2, externalId: 'api-unknown-key', details: { key: 'ninguem@notfound.example', keyType: 'EMAIL', name: 'Ninguém', document: cpf(32) } });
    expect(api.statusCode, api.body).toBe(201);
    fake.cashOutAnswer = refusal;
    await h.runJobs();

    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'ninguem@notfound.example', amount: '2,00', description: '' });
    expect(review.statusCode, review.body.slice(0, 300)).toBe(200);
    expect(detailText(review.body, 'holder-name')).toBe('Not known until the payment settles');
    const sent = await member.post('/portal/payouts', { ...payoutConfirmationForm(review.body), document: cpf(32), name: '' });
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    fake.cashOutAnswer = refusal;
    await h.runJobs();

    for (const transactionId of [api.json().transactionId as string, String(sent.headers.location).split('/').pop()!]) {
      expect(await row(transactionId)).toMatchObject({ status: 'ERROR', error_code: 'PIX_INVALID_PIX_KEY' });
    }
    expect(await h.balance(accountId)).toEqual(before);
  });

  it('an API cash-out keeps what its caller named until the provider says more, and still requires details.document', async () => {
    const token = await h.tokenFor(accountId);
    const res = await h.api('POST', '/api/pix/cash-out', token, { value: 1, externalId: 'api-provider-1', details: { key: 'api@pagamentos.example', keyType: 'EMAIL', name: 'Fulano', document: cpf(31) } });
    expect(res.statusCode, res.body).toBe(201);
    expect((await row(res.json().transactionId)).counterpart).toMatchObject({ name: 'Fulano', document: cpf(31), bank: { bankName: null } });
    const missing = await h.api('POST', '/api/pix/cash-out', token, { value: 1, externalId: 'api-provider-2', details: { key: 'api@pagamentos.example', keyType: 'EMAIL', name: 'Fulano' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toEqual(['details.document is required']);
  });
});
