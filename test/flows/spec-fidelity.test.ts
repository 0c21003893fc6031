import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { encodeStaticBrCode } from '../../src/domain/brcode/encode.ts';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

/** Issue 17 items 1 and 3, issue 10 items 7, 9 and 14: input the schema let through once answered 500 or one text. */
let h: Harness;
let account: { id: number; pixKey: string };
let token: string;
let n = 0;
const txid = () => `fidelity${String(++n).padStart(4, '0')}abcdefghijklmnopqr`; // 30 characters
const AMOUNT_TEXT = 'must be an amount from 0.01 to 999999999.99 written with two decimals (e.g. "10.00")';
const DOCUMENT_TEXT = 'must be a valid CPF (11 digits) or CNPJ (14 characters)';
const SURROGATE_TEXT = 'must not contain a lone UTF-16 surrogate (\\ud800-\\udfff)';

beforeAll(async () => {
  h = await startHarness();
  account = await h.createAccount({ funds: 10 });
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

const countRows = async (table: 'transactions' | 'charges' | 'accounts') =>
  Number((await h.c.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('amounts, dates and lengths a domain function cannot take answer the family 400 (issue 17 item 1)', () => {
  it('PUT /cob with valor.original above 999,999,999.99 is a 400 naming the field, not a 500', async () => {
    const before = await countRows('charges');
    for (const original of ['1000000000.00', '9999999999.99']) {
      const res = await h.api('PUT', `/cob/${txid()}`, token, { calendario: {}, valor: { original }, chave: account.pixKey });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, message: [`valor.original ${AMOUNT_TEXT}`], error: 'Bad Request' });
    }
    expect(await countRows('charges')).toBe(before);
    const max = await h.api('PUT', `/cob/${txid()}`, token, { calendario: {}, valor: { original: '999999999.99' }, chave: account.pixKey });
    expect(max.statusCode, max.body).toBe(201);
    expect(max.json().valor.original).toBe('999999999.99');
  });

  it('POST /api/pix/cash-in with transaction.value above 999,999,999.99 is a 400 naming the field, nothing stored', async () => {
    const before = await countRows('transactions');
    for (const value of [1_000_000_000, 9_999_999_999.99]) {
      const res = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value, description: 'd', externalId: `max-in-${n++}` }, payer: { fullName: 'Pagador', document: cpf(3) } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toEqual(['transaction.value must be less than or equal to 999999999.99']);
    }
    expect(await countRows('transactions')).toBe(before);
  });

  it('POST /api/pix/cash-out-qrcode and POST /dict/pix above 999,999,999.99 answer their amount codes (as cash-out), nothing stored', async () => {
    const before = await countRows('transactions');
    // A static code without an amount (the payer chooses it), so only our maximum can refuse it.
    const qrCode = encodeStaticBrCode({ key: cpf(5), merchantName: 'RECEBEDOR', merchantCity: 'SAO PAULO' });
    for (const value of [1_000_000_000, 9_999_999_999.99]) {
      const qr = await h.api('POST', '/api/pix/cash-out-qrcode', token, { value, qrCode, externalId: `max-qr-${n++}` });
      expect(qr.statusCode, qr.body).toBe(400);
      expect(qr.json().code).toBe('PIX_INVALID_AMOUNT');
      const dict = await h.api('POST', '/dict/pix', token, { pixKey: cpf(4), creditorDocument: cpf(4), payment: { currency: 'BRL', amount: value } }, { 'x-idempotency-key': randomUUID() });
      expect(dict.statusCode, dict.body).toBe(400);
      expect(dict.json().message).toBe('The amount is invalid: above 999,999,999.99, or the fee leaves nothing to pay.');
    }
    expect(await countRows('transactions')).toBe(before);
  });

  it('PUT /cob with an expiracao no charge can have is a 400 with the other fields', async () => {
    const res = await h.api('PUT', `/cob/${txid()}`, token, { calendario: { expiracao: 2 ** 40 }, valor: { original: '0.00' }, chave: account.pixKey });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual(['calendario.expiracao must be less than or equal to 604800', `valor.original ${AMOUNT_TEXT}`]);
  });

  it('GET /api/transactions with a date no database holds is a 400, not a 500 (issue 10 item 9)', async () => {
    const text = 'must be an ISO 8601 date (YYYY-MM-DD) or date-time, from 1970-01-01 to 2999-12-31';
    for (const [query, field] of [
      ['endDate=9999-12-31', 'endDate'],
      ['startDate=9999-12-01&endDate=9999-12-31', 'startDate'],
      ['startDate=0000-01-01&endDate=0000-01-02', 'startDate'],
      ['endDate=2026-02-30', 'endDate'],
      ['endDate=9999-12-31T23:59:59-03:00', 'endDate'],
    ] as const) {
      const res = await h.api('GET', `/api/transactions?${query}`, token);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'HTTP_ERROR', path: '/api/transactions' });
      expect(res.json().message).toContain(`${field} ${text}`);
    }
    const ok = await h.api('GET', '/api/transactions?startDate=2026-11-01&endDate=2026-11-20T23:00:00Z', token);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('GET /api/med with a date-time no database holds is a 400, not a 500', async () => {
    for (const query of ['endDate=9999-12-31T23:59:59-03:00', 'startDate=0000-01-01T00:00:00Z']) {
      const res = await h.api('GET', `/api/med?${query}`, token);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().message).toEqual([`${query.split('=')[0]} must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31`]);
    }
  });
});

describe('one text per invalid field, from the schema and the format checks together (issue 17 item 3, issue 10 item 14)', () => {
  it('POST /api/pix/cash-in: value 0, a payer document and a split document with wrong check digits, a split key of the wrong type', async () => {
    const res = await h.api('POST', '/api/pix/cash-in', token, {
      transaction: { value: 0, description: 'd', externalId: 'multi-1' },
      payer: { fullName: 'Pagador', document: '12345678900' },
      splits: [{ pixKey: 'x@example.com', pixKeyType: 'CPF', name: 'n', document: '11144477736', type: 'FIXED', value: 1 }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual([
      'transaction.value must be greater than or equal to 0.01',
      `payer.document ${DOCUMENT_TEXT}`,
      `splits[0].document ${DOCUMENT_TEXT}`,
      'splits[0].pixKey is not a valid CPF key',
    ]);
  });

  it('POST /api/pix/cash-out: value 0, a malformed EMAIL key and a document with wrong check digits', async () => {
    const res = await h.api('POST', '/api/pix/cash-out', token, {
      value: 0,
      externalId: 'multi-2',
      details: { key: 'not-an-email', keyType: 'EMAIL', name: 'N', document: '11144477736' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual([
      'value must be greater than or equal to 0.01',
      `details.document ${DOCUMENT_TEXT}`,
      'details.key is invalid for keyType EMAIL: An EMAIL key must be a valid e-mail address.',
    ]);
    // Several schema fields and the document, the case of issue 10 item 14.
    const many = await h.api('POST', '/api/pix/cash-out', token, { value: 'x', details: { key: cpf(9), keyType: 'DOCUMENT', name: '', document: '123' } });
    expect(many.json().message).toEqual(['externalId is required', 'value must be a number', 'details.name must not be empty', `details.document ${DOCUMENT_TEXT}`]);
  });

  it('POST /dict/pix and PUT /cob: key, documents and amount in one answer', async () => {
    const dict = await h.api(
      'POST',
      '/dict/pix',
      token,
      { pixKey: 'nobody', creditorDocument: '11111111111', payment: { currency: 'BRL', amount: 0 } },
      { 'x-idempotency-key': randomUUID() },
    );
    expect(dict.statusCode, dict.body).toBe(400);
    expect(dict.json().message).toEqual([
      'pixKey must be a valid PIX key: CPF (11 digits), CNPJ (14), e-mail, phone as +55 plus area code and number, or EVP (UUID)',
      `creditorDocument ${DOCUMENT_TEXT}`,
      'payment.amount must be greater than or equal to 0.01',
    ]);
    const cob = await h.api('PUT', `/cob/${txid()}`, token, {
      calendario: { expiracao: 5 },
      devedor: { cpf: '12345678900', nome: 'N' },
      valor: { original: '1000000000.00' },
      chave: 'x',
    });
    expect(cob.json().message).toEqual([
      'calendario.expiracao must be greater than or equal to 30',
      'devedor.cpf must be a valid CPF of exactly 11 digits',
      `valor.original ${AMOUNT_TEXT}`,
      'chave must be a valid PIX key: CPF (11 digits), CNPJ (14), e-mail, phone as +55 plus area code and number, or EVP (UUID)',
    ]);
  });

  it('path values and the body in one answer (Fastify stops at the first part that fails)', async () => {
    const cob = await h.api('PUT', '/cob/short', token, { calendario: { expiracao: 5 }, valor: { original: '0.00' }, chave: 'x' });
    expect(cob.statusCode, cob.body).toBe(400);
    expect(cob.json().message).toEqual([
      'txid has an invalid format',
      'calendario.expiracao must be greater than or equal to 30',
      `valor.original ${AMOUNT_TEXT}`,
      'chave must be a valid PIX key: CPF (11 digits), CNPJ (14), e-mail, phone as +55 plus area code and number, or EVP (UUID)',
    ]);
    const devolucao = await h.api('PUT', `/pix/not-an-e2e/devolucao/${'d'.repeat(36)}`, token, { valor: '1000000000.00', natureza: 'OTHER' });
    expect(devolucao.statusCode, devolucao.body).toBe(400);
    expect(devolucao.json().message).toEqual(['e2eid has an invalid format', 'id has an invalid format', `valor ${AMOUNT_TEXT}`, 'natureza must be one of: ORIGINAL, RETIRADA']);
    const limits = await h.admin('PATCH', '/admin/accounts/abc/limits', { daily: -1 });
    expect(limits.json().message).toEqual(['id has an invalid format', 'daily must be greater than or equal to 0']);
    const resend = await h.api('POST', `/api/resend-webhook/${'r'.repeat(300)}`, token, { url: 42 });
    expect(resend.statusCode, resend.body).toBe(400);
    expect(resend.json()).toMatchObject({ code: 'HTTP_ERROR', message: ['transactionIdentifier must be at most 255 characters long', 'url must be a string'] });
  });

  it('sandbox routes: key by type, document and participant in one answer', async () => {
    const key = await h.api('POST', '/sandbox/dict/keys', token, { key: 'not-a-phone', keyType: 'PHONE', name: 'N', document: '11111111111', ispb: '12345679' });
    expect(key.statusCode, key.body).toBe(400);
    expect(key.json().message).toEqual([`document ${DOCUMENT_TEXT}`, 'ispb must be the ISPB of a known PIX participant', 'key is not a valid PHONE key']);
    const deposit = await h.api('POST', '/sandbox/deposits', token, { amount: 0, payer: { name: 'P', document: '11111111111', ispb: '12345679' } });
    expect(deposit.json().message).toEqual(['amount must be greater than or equal to 0.01', `payer.document ${DOCUMENT_TEXT}`, 'payer.ispb must be the ISPB of a known PIX participant']);
    expect(await h.balance(account.id)).toEqual({ available: 10, blocked: 0 });
  });

  it('the NUL guard reports with the schema errors', async () => {
    const res = await h.api('POST', '/api/pix/cash-out', token, { value: 0, externalId: 'a\u0000', details: { key: 'k', keyType: 'NOPE', name: 'N', document: cpf(2) } });
    expect(res.json().message).toEqual([
      'externalId must not contain the NUL character (\\u0000)',
      'value must be greater than or equal to 0.01',
      'details.keyType must be one of: DOCUMENT, EMAIL, PHONE, RANDOM',
    ]);
  });
});

describe('lone UTF-16 surrogates answer 400 naming the field, as the NUL guard does (issue 10 item 7)', () => {
  it('in body fields of every family (a URL cannot carry one: its bytes decode as UTF-8)', async () => {
    const before = { tx: await countRows('transactions'), charges: await countRows('charges'), accounts: await countRows('accounts') };
    const cases: Array<[string, Promise<{ statusCode: number; json: () => any; body: string }>, string[]]> = [
      [
        'cash-out',
        h.api('POST', '/api/pix/cash-out', token, { value: 1, externalId: 'ab\ud800', description: '\udfffx', details: { key: 'a@example.com', keyType: 'EMAIL', name: 'N', document: cpf(3) } }),
        [`externalId ${SURROGATE_TEXT}`, `description ${SURROGATE_TEXT}`],
      ],
      [
        'cash-in',
        h.api('POST', '/api/pix/cash-in', token, {
          transaction: { value: 1, description: 'd\udc00', externalId: 'ci-surrogate' },
          payer: { fullName: 'P\ud800', document: cpf(5) },
          additionalInfo: { ok: 'v\udbff' },
        }),
        [`transaction.description ${SURROGATE_TEXT}`, `payer.fullName ${SURROGATE_TEXT}`, `additionalInfo.ok ${SURROGATE_TEXT}`],
      ],
      ['cob', h.api('PUT', `/cob/${txid()}`, token, { calendario: {}, valor: { original: '1.00' }, chave: account.pixKey, solicitacaoPagador: '\ud800' }), [`solicitacaoPagador ${SURROGATE_TEXT}`]],
      ['admin', h.admin('POST', '/admin/accounts', { name: 'Nome \ud800', document: cpf(77) }), [`name ${SURROGATE_TEXT}`]],
      ['sandbox', h.api('POST', '/sandbox/deposits', token, { amount: 1, payer: { name: '\ud800', document: cpf(8), ispb: '00000000' } }), [`payer.name ${SURROGATE_TEXT}`]],
    ];
    for (const [label, pending, texts] of cases) {
      const res = await pending;
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      for (const text of texts) expect(res.json().message, label).toContain(text);
    }
    // A well-formed pair (an emoji) is ordinary text.
    const emoji = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 1, description: 'pago 😀', externalId: 'ci-emoji' }, payer: { fullName: 'P', document: cpf(5) } });
    expect(emoji.statusCode, emoji.body).toBe(201);
    expect(await countRows('transactions')).toBe(before.tx + 1);
    expect(await countRows('charges')).toBe(before.charges + 1);
    expect(await countRows('accounts')).toBe(before.accounts);
    expect(await h.balance(account.id)).toEqual({ available: 10, blocked: 0 });
  });
});

describe("a refund-in externalId as the provider's API takes it (issue 21 item 5; decisions section 7)", () => {
  it('over 35 characters, empty, with spaces at an end or a control character is a 400 naming the field; nothing is held', async () => {
    const { account: owner, pix, token: ownerToken } = await accountWithReceivedPix(h, 50);
    const text = 'externalId must be 1 to 35 printable characters, without spaces at either end';
    for (const externalId of ['r'.repeat(36), '', ' refund-1', 'refund-1 ', 'refund\u00071']) {
      const res = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, ownerToken, { refundValue: 1, externalId });
      expect(res.statusCode, `${JSON.stringify(externalId)}: ${res.body}`).toBe(400);
      expect(res.json().message, JSON.stringify(externalId)).toContain(text);
    }
    expect(await h.balance(owner.id)).toEqual({ available: 50, blocked: 0 });
  });

  it('refund-1 (punctuation) answers 201 with its externalId; /devolucao finds it by the service\'s own id, not by refund-1', async () => {
    const { pix, token: ownerToken } = await accountWithReceivedPix(h, 50);
    const created = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, ownerToken, { refundValue: 1, externalId: 'refund-1' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ externalId: 'refund-1', status: 'PENDING' });
    const transactionId = created.json().transactionId as string;
    expect((await h.api('GET', `/api/pix/transaction/refund-1`, ownerToken)).json()).toMatchObject({ externalId: 'refund-1', type: 'REFUND_IN' });
    const own = await h.api('GET', `/pix/${pix.endToEndId}/devolucao/${transactionId.replaceAll('-', '')}`, ownerToken);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id: transactionId.replaceAll('-', ''), valor: '1.00' });
    // The id with its hyphen is not a devolução id at all (the compatible family's pattern).
    expect((await h.api('GET', `/pix/${pix.endToEndId}/devolucao/refund-1`, ownerToken)).statusCode).toBe(400);
    // Unique per account like any externalId; 35 printable characters (spaces inside) are fine.
    const again = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, ownerToken, { refundValue: 1, externalId: 'refund-1' });
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json().code).toBe('PIX_REFUND_DUPLICATE_EXTERNAL_ID');
    const spaced = `rf ${randomUUID()}`.slice(0, 35);
    const long = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, ownerToken, { refundValue: 1, externalId: spaced });
    expect(long.statusCode, long.body).toBe(201);
    expect(long.json().externalId).toBe(spaced);
  });

  it('letters and digits only (up to 35) are also the devolução id, read back by /devolucao', async () => {
    const { pix, token: ownerToken } = await accountWithReceivedPix(h, 50);
    const id = 'R'.repeat(35);
    const created = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, ownerToken, { refundValue: 1, externalId: id });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().externalId).toBe(id);
    const read = await h.api('GET', `/pix/${pix.endToEndId}/devolucao/${id}`, ownerToken);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id, valor: '1.00' });
  });
});

describe('a charge that cannot be paid says why (issue 10 item 13; the race itself: test/postgres/charges-concurrency.test.ts)', () => {
  it('already paid, cancelled by the receiver, expired', async () => {
    const paidTxid = txid();
    expect((await h.api('PUT', `/cob/${paidTxid}`, token, { calendario: { expiracao: 600 }, valor: { original: '1.00' }, chave: account.pixKey }, { 'x-sandbox-scenario': 'pending' })).statusCode).toBe(201);
    expect((await h.api('POST', `/sandbox/charges/${paidTxid}/pay`, token, {})).statusCode).toBe(200);
    const again = await h.api('POST', `/sandbox/charges/${paidTxid}/pay`, token, {});
    expect(again.json()).toEqual({ statusCode: 409, message: 'The charge cannot be paid: it was already paid', error: 'Conflict' });

    const cancelledTxid = txid();
    expect((await h.api('PUT', `/cob/${cancelledTxid}`, token, { calendario: { expiracao: 600 }, valor: { original: '1.00' }, chave: account.pixKey }, { 'x-sandbox-scenario': 'pending' })).statusCode).toBe(201);
    expect((await h.api('PATCH', `/cob/${cancelledTxid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).statusCode).toBe(200);
    expect((await h.api('POST', `/sandbox/charges/${cancelledTxid}/pay`, token, {})).json().message).toBe('The charge cannot be paid: it was cancelled by the receiver');

    const expiringTxid = txid();
    expect((await h.api('PUT', `/cob/${expiringTxid}`, token, { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: account.pixKey }, { 'x-sandbox-scenario': 'pending' })).statusCode).toBe(201);
    h.clock.advance(61); // past the expiry, before its job has run
    expect((await h.api('POST', `/sandbox/charges/${expiringTxid}/pay`, token, {})).json().message).toBe('The charge cannot be paid: it has expired');
  });
});
