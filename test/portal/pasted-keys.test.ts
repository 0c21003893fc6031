import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/domain/errors/catalogue.ts';
import { startHarness, type Harness } from '../harness.ts';
import { detailText, payoutConfirmationForm, portalClient, signedInMember } from './portal-client.ts';

/**
 * Issue 30 item 1: "Send a PIX" takes keys as people paste them, shows the normalised key on the
 * review and pays it; every refusal on a Portuguese page is in Portuguese and names the field.
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

const PT = { 'accept-language': 'pt-BR' };
/** The API's English words for a refused field, and every English text of the error catalogue. */
const ENGLISH_REFUSAL = /\b(must be|must not|must have|is required|is not valid|Invalid|not allowed)\b/;
const CATALOGUE_ENGLISH = Object.values(catalogue).map((spec) => spec.message);
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1] ?? '';

function expectNoEnglish(html: string) {
  const alert = alertOf(html);
  expect(alert).not.toBe('');
  expect(alert).not.toMatch(ENGLISH_REFUSAL);
  for (const english of CATALOGUE_ENGLISH) expect(html).not.toContain(english);
}

const PASTED = [
  { keyType: '', key: '+55 11 98765-4321', type: 'PHONE', normalised: '11987654321' },
  { keyType: '', key: '+5511987654321', type: 'PHONE', normalised: '11987654321' },
  { keyType: '', key: '(11) 98765-4321', type: 'PHONE', normalised: '11987654321' },
  { keyType: 'PHONE', key: '11 98765 4321', type: 'PHONE', normalised: '11987654321' },
  { keyType: '', key: '111.444.777-35', type: 'DOCUMENT', normalised: '11144477735' },
  { keyType: 'DOCUMENT', key: '11.222.333/0001-81', type: 'DOCUMENT', normalised: '11222333000181' },
  { keyType: '', key: '  Maria.Souza@Example.COM ', type: 'EMAIL', normalised: 'maria.souza@example.com' },
  { keyType: '', key: '7D9F3C1A-2B4E-4F6A-8C0D-1E2F3A4B5C6D', type: 'RANDOM', normalised: '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d' },
];

describe('Send a PIX takes keys as pasted', () => {
  for (const { keyType, key, type, normalised } of PASTED) {
    it(`${JSON.stringify(key)} (${keyType || 'type told by the key'}) is reviewed and paid as the ${type} key ${normalised}`, async () => {
      const review = await member.post('/portal/payouts/review', { keyType, key, amount: '1,00', description: '' }, PT);
      expect(review.statusCode, alertOf(review.body)).toBe(200);
      expect(detailText(review.body, 'review-key')).toBe(normalised);
      const form = payoutConfirmationForm(review.body);
      expect(form).toMatchObject({ key: normalised, keyType: type });
      const sent = await member.post('/portal/payouts', form, PT);
      expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
      await h.advance(2);
      const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', String(sent.headers.location).split('/').pop()!).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'CONFIRMED', kind: 'WITHDRAW', pix_key: normalised, original_amount: 100 });
    });
  }

  it('an 11-digit key that is both a valid CPF and a mobile number asks for its type; chosen, it is paid', async () => {
    const ambiguous = await member.post('/portal/payouts/review', { keyType: '', key: '11987654374', amount: '1,00', description: '' }, PT);
    expect(ambiguous.statusCode).toBe(400);
    expect(alertOf(ambiguous.body)).toBe('Chave PIX: 11987654374 pode ser um CPF ou um celular. Escolha o tipo da chave e revise de novo.');
    const asCpf = await member.post('/portal/payouts/review', { keyType: 'DOCUMENT', key: '11987654374', amount: '1,00', description: '' });
    expect(asCpf.statusCode).toBe(200);
    expect(payoutConfirmationForm(asCpf.body)).toMatchObject({ key: '11987654374', keyType: 'DOCUMENT' });
  });

  it('the API keeps the spec formats: a pasted phone is still refused there', async () => {
    const token = await h.tokenFor(accountId);
    const res = await h.api('POST', '/api/pix/cash-out', token, { value: 1, externalId: 'api-pasted-1', details: { key: '+55 11 98765-4321', keyType: 'PHONE' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('a Portuguese page never shows an English refusal, and names the field', () => {
  const cases = [
    { key: '+1 415 555 0100', keyType: '', expected: 'Chave PIX: só números de celular do Brasil (+55) podem ser chaves PIX.' },
    { key: '111.444.777-36', keyType: 'DOCUMENT', expected: 'Chave PIX: um CPF tem 11 dígitos e um CNPJ 14 caracteres, com dígitos verificadores válidos.' },
    { key: 'maria@', keyType: '', expected: 'Chave PIX: este não é um endereço de e-mail válido.' },
    { key: '12345', keyType: 'PHONE', expected: 'Chave PIX: um celular tem o DDD e 8 ou 9 dígitos, como (11) 98765-4321.' },
    { key: 'xyz', keyType: 'RANDOM', expected: 'Chave PIX: uma chave aleatória tem 32 caracteres hexadecimais, como 7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d.' },
  ];
  for (const { key, keyType, expected } of cases) {
    it(`Send a PIX to ${JSON.stringify(key)}: ${expected}`, async () => {
      const res = await member.post('/portal/payouts/review', { keyType, key, amount: '1,00', description: '' }, PT);
      expect(res.statusCode).toBe(400);
      expect(alertOf(res.body)).toBe(expected);
      expectNoEnglish(res.body);
    });
  }

  it('the same refusal on the English page is in English', async () => {
    const res = await member.post('/portal/payouts/review', { keyType: '', key: '+1 415 555 0100', amount: '1,00', description: '' }, { 'accept-language': 'en' });
    expect(alertOf(res.body)).toBe('PIX key: only Brazilian phone numbers (+55) can be PIX keys.');
  });

  it("a service's field check (the transaction list's dates) is said in Portuguese, naming the field", async () => {
    const res = await member.get('/portal/transactions?startDate=2026-02-30', PT);
    expect(res.statusCode).toBe(400);
    expect(alertOf(res.body)).toBe('De: o valor informado não é aceito. Verifique e tente de novo.');
    expectNoEnglish(res.body);
    const en = await member.get('/portal/transactions?startDate=2026-02-30', { 'accept-language': 'en' });
    expect(alertOf(en.body)).toContain('startDate must be an ISO 8601 date');
  });

  it("a business refusal (more than the balance) is the catalogue's Portuguese text", async () => {
    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'joao@example.com', amount: '100.000,00', description: '' }, PT);
    expect(review.statusCode).toBe(200);
    const sent = await member.post('/portal/payouts', payoutConfirmationForm(review.body), PT);
    expect(sent.statusCode).toBeGreaterThanOrEqual(400);
    expectNoEnglish(sent.body);
  });
});
