import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskDocument } from '../../src/domain/documents.ts';
import { syntheticHolder } from '../../src/network/sandbox/key-directory.ts';
import { cnpj, cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { detailText, payoutConfirmationForm, portalClient, signedInMember } from './portal-client.ts';

/**
 * Issue 21 item 1, sandbox: "Send a PIX" in the portal to keys nobody registered, of all five types
 * (CPF, CNPJ, e-mail, phone, random), over HTTP through the portal's own routes. The confirmation
 * shows what the directory gives and names what it does not; Confirm sends a payout that settles.
 */
let h: Harness;
let member: ReturnType<typeof portalClient>;
let accountId: number;

beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ name: 'Padaria Central', funds: 500 });
  accountId = account.id;
  member = await signedInMember(h, account.id, 'caixa@padaria.example');
});
afterAll(() => h.close());


const CPF_KEY = cpf(771);
const CNPJ_KEY = cnpj(772);
const KEYS = [
  { form: { keyType: 'DOCUMENT', key: CPF_KEY }, dict: { type: 'CPF' as const, normalized: CPF_KEY }, document: maskDocument(CPF_KEY) },
  { form: { keyType: 'DOCUMENT', key: CNPJ_KEY }, dict: { type: 'CNPJ' as const, normalized: CNPJ_KEY }, document: maskDocument(CNPJ_KEY) },
  { form: { keyType: 'EMAIL', key: 'nunca.registrado@exemplo.com.br' }, dict: { type: 'EMAIL' as const, normalized: 'nunca.registrado@exemplo.com.br' }, document: undefined },
  { form: { keyType: 'PHONE', key: '11987654321' }, dict: { type: 'PHONE' as const, normalized: '+5511987654321' }, document: undefined },
  { form: { keyType: 'RANDOM', key: '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d' }, dict: { type: 'EVP' as const, normalized: '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d' }, document: undefined },
];

describe('portal payouts to keys never registered, all five key types (sandbox)', () => {
  for (const { form, dict, document } of KEYS) {
    it(`${dict.type}: the review shows the directory's holder and bank, Confirm sends a payout that ends CONFIRMED`, async () => {
      const expected = syntheticHolder(dict, {});
      const before = await h.balance(accountId);
      const review = await member.post('/portal/payouts/review', { ...form, amount: '12,34', description: `Teste ${dict.type}` });
      expect(review.statusCode, review.body).toBe(200);
      expect(detailText(review.body, 'holder-name')).toBe(expected.name);
      expect(detailText(review.body, 'holder-bank')).toBe(expected.bank.name);
      // A document key's holder has that document; the others' the directory does not give: said so, never blank.
      expect(detailText(review.body, 'holder-document')).toBe(document ?? 'Not given by the key directory');
      expect(review.body).not.toMatch(/<dd[^>]*>\s*<\/dd>/);
      // Nothing asked of the member in the sandbox, and no holder's document travels in the page.
      expect(review.body).not.toContain('name="document"');
      expect(review.body).not.toContain('holderDocument');
      expect(await h.balance(accountId)).toEqual(before);

      const sent = await member.post('/portal/payouts', payoutConfirmationForm(review.body));
      expect(sent.statusCode, sent.body.slice(0, 500)).toBe(303);
      const transactionId = String(sent.headers.location).split('/').pop()!;
      const pending = await member.get(String(sent.headers.location));
      expect(pending.body).toContain('R$ 12,34');
      await h.advance(2); // the sandbox settles after SANDBOX_SETTLEMENT_DELAY_MS
      const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'CONFIRMED', kind: 'WITHDRAW', pix_key: form.key, original_amount: 1234 });
      expect(row.counterpart).toMatchObject({ name: expected.name, bank: { bankISPB: expected.bank.ispb, bankName: expected.bank.name } });
      expect((await h.balance(accountId)).available).toBeCloseTo(before.available - 12.34, 2);
      const detail = await member.get(`/portal/transactions/${transactionId}`);
      expect(detail.body).toContain('Confirmed');
      expect(detail.body).toContain(expected.name!);
    });
  }
});

describe('portal payouts: registered and on-us keys keep their checks', () => {
  it("a registered key shows its holder's masked document; the payout settles (the member named no document to contradict it)", async () => {
    const doc = cpf(4242);
    expect((await h.admin('POST', '/sandbox/dict/keys', { key: 'joana@fornecedor.example', keyType: 'EMAIL', name: 'Joana Fornecedora', document: doc, ispb: '60746948' })).statusCode).toBe(201);
    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'joana@fornecedor.example', amount: '5,00', description: '' });
    expect(detailText(review.body, 'holder-name')).toBe('Joana Fornecedora');
    expect(detailText(review.body, 'holder-document')).toBe(maskDocument(doc));
    expect(review.body).not.toContain(doc);
    const sent = await member.post('/portal/payouts', payoutConfirmationForm(review.body));
    expect(sent.statusCode).toBe(303);
    await h.advance(2);
    const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', String(sent.headers.location).split('/').pop()!).executeTakeFirstOrThrow();
    expect(row.status).toBe('CONFIRMED');
    expect(row.counterpart).toMatchObject({ name: 'Joana Fornecedora', document: doc });
  });

  it('the API still refuses a registered key paid with another document (TAX_ID_MISMATCH), and still requires details.document', async () => {
    const token = await h.tokenFor(accountId);
    const body = { value: 1, details: { key: 'joana@fornecedor.example', keyType: 'EMAIL', name: 'Joana', document: cpf(4243) } };
    const res = await h.api('POST', '/api/pix/cash-out', token, { ...body, externalId: 'api-mismatch-1' });
    expect(res.statusCode, res.body).toBe(201);
    await h.advance(2);
    const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', res.json().transactionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ERROR', error_code: 'TAX_ID_MISMATCH' });
    const { document: _dropped, ...withoutDocument } = body.details;
    const missing = await h.api('POST', '/api/pix/cash-out', token, { ...body, externalId: 'api-no-doc', details: withoutDocument });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('details.document is required');
  });

  it("an on-us key (another account of this service) is paid at once, to that account's name and document", async () => {
    const other = await h.createAccount({ name: 'Mercado Vizinho', document: cnpj(9911) });
    const review = await member.post('/portal/payouts/review', { keyType: 'RANDOM', key: other.pixKey, amount: '3,00', description: '' });
    expect(detailText(review.body, 'holder-name')).toBe('Mercado Vizinho');
    expect(detailText(review.body, 'holder-document')).toBe(maskDocument(cnpj(9911)));
    const sent = await member.post('/portal/payouts', payoutConfirmationForm(review.body));
    expect(sent.statusCode).toBe(303);
    const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', String(sent.headers.location).split('/').pop()!).executeTakeFirstOrThrow();
    expect(row.status).toBe('CONFIRMED');
    expect(await h.balance(other.id)).toEqual({ available: 3, blocked: 0 });
  });
});
