import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode/parse.ts';
import { cnpj, cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

// jsqr is CommonJS with a default export: its types and the ESM interop disagree on the shape.
const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

let h: Harness;
let account: { id: number; pixKey: string; name: string };
let token: string;
let seq = 0;

beforeAll(async () => {
  h = await startHarness();
  account = await h.createAccount({ name: 'Loja da Bárbara' });
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

function body(overrides: Record<string, unknown> = {}, tx: Record<string, unknown> = {}) {
  seq += 1;
  return {
    transaction: { value: 25.5, description: 'Pedido 1', externalId: `ext-${seq}`, ...tx },
    payer: { fullName: 'João Pagador', document: cpf(1234) },
    ...overrides,
  };
}
const cashIn = (b: unknown, headers: Record<string, string> = {}, t = token) => h.api('POST', '/api/pix/cash-in', t, b, headers);
const events = async (transactionId: number) =>
  h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', transactionId).orderBy('id').execute();
const txRow = (transactionId: string) => h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();

describe('POST /api/pix/cash-in', () => {
  it('creates a PENDING charge with a dynamic BR Code pointing at its location', async () => {
    const res = await cashIn(body({}, { expirationTime: 3600 }), { 'x-sandbox-scenario': 'pending' });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalId: expect.stringMatching(/^ext-/),
      status: 'PENDING',
      pixCode: expect.stringMatching(/^000201010212/),
      generateTime: '2026-11-20T15:00:00.000Z',
      expirationDate: '2026-11-20T16:00:00.000Z',
    });
    const parsed = parseBrCode(created.pixCode);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.code).toMatchObject({ amount: 2550, merchantName: 'LOJA DA BARBARA', merchantCity: 'SAO PAULO' });
    expect(JSON.stringify(parsed.code)).toMatch(new RegExp(`${h.c.config.publicHost}/qr/v2/[0-9a-f]{32}`));
    // An independent library reads the service's code the same way.
    const theirs = parsePix(created.pixCode);
    if (hasError(theirs)) throw new Error(`pix-utils: ${theirs.message}`);
    expect(theirs).toMatchObject({ type: 'DYNAMIC', merchantName: 'LOJA DA BARBARA', merchantCity: 'SAO PAULO' });
    expect((theirs as { url: string }).url).toMatch(new RegExp(`^${h.c.config.publicHost}/qr/v2/[0-9a-f]{32}$`));
    const tx = await txRow(created.transactionId);
    expect(tx).toMatchObject({ kind: 'PAYMENT', status: 'PENDING', origin: 'cash_in', original_amount: 2550 });
  });

  it('adds a PNG QR image only when asked, and it decodes to the same pixCode', async () => {
    const without = (await cashIn(body())).json();
    expect(without.qrCodeImage).toBeUndefined();
    const res = await cashIn(body({}, { generateQrCode: true }));
    const { qrCodeImage, pixCode } = res.json();
    expect(qrCodeImage).toMatch(/^data:image\/png;base64,/);
    const png = PNG.sync.read(Buffer.from(qrCodeImage.split(',')[1], 'base64'));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(pixCode);
  });

  it('refuses each invalid field with one text per field', async () => {
    const cases: Array<[unknown, string]> = [
      [body({}, { value: 0 }), 'transaction.value'],
      [body({}, { value: 1.234 }), 'transaction.value'],
      [body({}, { description: '' }), 'transaction.description'],
      [body({}, { description: 'x'.repeat(141) }), 'transaction.description'],
      [body({}, { externalId: '' }), 'transaction.externalId'],
      [body({}, { expirationTime: 29 }), 'transaction.expirationTime'],
      [body({}, { expirationTime: 604801 }), 'transaction.expirationTime'],
      [body({ payer: { fullName: 'X', document: '12345678900' } }), 'payer.document'],
      [body({ payer: { fullName: 'x'.repeat(101), document: cpf(3) } }), 'payer.fullName'],
      [body({ additionalInfo: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }), 'additionalInfo'],
      [body({ additionalInfo: { a: 1 } }), 'additionalInfo'],
    ];
    for (const [b, field] of cases) {
      const res = await cashIn(b);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().code).toBe('HTTP_ERROR');
      expect(res.json().message, field).toEqual([expect.stringContaining(field)]);
    }
  });

  it('refuses an expiration below the provider minimum with the business code of decisions 4.4', async () => {
    const res = await cashIn(body({}, { expirationTime: 45 }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'PIX_PROVIDER_EXPIRATION_BELOW_MINIMUM',
      errorCode: 'PROVIDER_EXPIRATION_BELOW_MINIMUM',
      details: { provider: 'sandbox', providerMinSeconds: 60, granularity: 'seconds', userExpirationTime: 45 },
    });
    expect((await cashIn(body({}, { expirationTime: 60 }))).statusCode).toBe(201);
  });

  it('defaults the expiration to 86400 seconds', async () => {
    const res = (await cashIn(body())).json();
    expect(res.expirationDate).toBe('2026-11-21T15:00:00.000Z');
  });

  it('answers 400 PIX_DUPLICATE_EXTERNAL_ID for a used externalId, per account', async () => {
    const first = (await cashIn(body({}, { externalId: 'dup-1' }))).json();
    const again = await cashIn(body({}, { externalId: 'dup-1' }));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'PIX_DUPLICATE_EXTERNAL_ID',
      details: { externalId: 'dup-1', existingTransactionId: first.transactionId },
    });
    const other = await h.createAccount();
    const otherToken = await h.tokenFor(other.id);
    expect((await cashIn(body({}, { externalId: 'dup-1' }), {}, otherToken)).statusCode).toBe(201);
  });

  it('answers 500 at once for error:provider-unavailable and stores nothing', async () => {
    const before = await h.c.db.selectFrom('transactions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await cashIn(body({}, { externalId: 'unavailable-1' }), { 'x-sandbox-scenario': 'error:provider-unavailable' });
    expect(res.statusCode).toBe(500);
    const after = await h.c.db.selectFrom('transactions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await cashIn(body({}, { externalId: 'unavailable-1' }))).statusCode).toBe(201);
  });

  it('refuses an unknown scenario, listing the allowed ones', async () => {
    const res = await cashIn(body(), { 'x-sandbox-scenario': 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message[0]).toContain('success');
  });

  it('needs a token with pix:write', async () => {
    expect((await h.app.inject({ method: 'POST', url: '/api/pix/cash-in', payload: body() })).statusCode).toBe(401);
    const readOnly = await h.tokenFor(account.id, ['pix:read']);
    expect((await cashIn(body(), {}, readOnly)).statusCode).toBe(403);
  });

  it('refuses a fee that leaves nothing to credit', async () => {
    const acc = await h.createAccount();
    await h.admin('PATCH', `/admin/accounts/${acc.id}/fees`, { cashIn: { fixed: 1, percent: 0 } });
    const t = await h.tokenFor(acc.id);
    const res = await cashIn(body({}, { value: 1 }), {}, t);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PIX_INVALID_AMOUNT');
  });
});

describe('cash-in outcomes (decisions 4.9)', () => {
  it('success (and no header): a simulated payer pays after the settlement delay, credited net of fees', async () => {
    const acc = await h.createAccount();
    await h.admin('PATCH', `/admin/accounts/${acc.id}/fees`, { cashIn: { fixed: 0.5, percent: 1 } });
    const t = await h.tokenFor(acc.id);
    const a = (await cashIn(body({ additionalInfo: { pedido: '42' } }, { value: 100 }), {}, t)).json();
    const b = (await cashIn(body({}, { value: 10 }), { 'x-sandbox-scenario': 'success' }, t)).json();
    await h.advance(0);
    expect((await txRow(a.transactionId)).status).toBe('PENDING');
    await h.advance(1);
    const paid = await txRow(a.transactionId);
    expect(paid).toMatchObject({ status: 'CONFIRMED', original_amount: 10000, fee_amount: 150, final_amount: 9850 });
    expect(paid.end_to_end_id).toMatch(/^E\d{8}202611201500[A-Za-z0-9]{11}$/);
    expect((await txRow(b.transactionId)).status).toBe('CONFIRMED');
    // 100 - (0.50 + 1%) = 98.50; 10 - (0.50 + 0.10) = 9.40
    expect(await h.balance(acc.id)).toEqual({ available: 107.9, blocked: 0 });
    const [event] = await events(paid.id);
    expect(event!.type).toBe('cash_in');
    expect(event!.payload).toMatchObject({
      event: 'CashIn',
      status: 'CONFIRMED',
      movementType: 'CREDIT',
      transactionId: a.transactionId,
      pixKey: acc.pixKey,
      originalAmount: 100,
      feeAmount: 1.5,
      finalAmount: 98.5,
      metadata: { pedido: '42' },
      counterpart: { name: expect.any(String), document: expect.stringMatching(/^\*\*\*\./) },
    });
  });

  it('delayed:Ns pays N seconds after the settlement delay', async () => {
    const a = (await cashIn(body(), { 'x-sandbox-scenario': 'delayed:10s' })).json();
    await h.advance(10);
    expect((await txRow(a.transactionId)).status).toBe('PENDING');
    await h.advance(1);
    expect((await txRow(a.transactionId)).status).toBe('CONFIRMED');
  });

  it('error:* ends the charge in ERROR with that code and a cash_in event', async () => {
    const a = (await cashIn(body(), { 'x-sandbox-scenario': 'error:account-blocked' })).json();
    await h.advance(1);
    const tx = await txRow(a.transactionId);
    expect(tx).toMatchObject({ status: 'ERROR', error_code: 'BLOCKED_ACCOUNT', end_to_end_id: null });
    const [event] = await events(tx.id);
    expect(event!.payload).toMatchObject({ event: 'CashIn', status: 'ERROR', errorCode: 'BLOCKED_ACCOUNT', errorMessage: expect.any(String) });
    const pay = await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, token, {});
    expect(pay.statusCode).toBe(409);
  });

  it('pending waits; it expires at generateTime + expirationTime with CHARGE_EXPIRED and a cash_in event', async () => {
    const a = (await cashIn(body({}, { expirationTime: 120 }), { 'x-sandbox-scenario': 'pending' })).json();
    await h.advance(119);
    const waiting = await txRow(a.transactionId);
    expect(waiting.status).toBe('PENDING');
    await h.advance(1);
    const tx = await txRow(a.transactionId);
    expect(tx).toMatchObject({ status: 'ERROR', error_code: 'CHARGE_EXPIRED' });
    const [event] = await events(tx.id);
    expect(event!.payload).toMatchObject({ event: 'CashIn', status: 'ERROR', errorCode: 'CHARGE_EXPIRED' });
    const pay = await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, token, {});
    expect(pay.statusCode).toBe(409);
  });
});

describe('POST /sandbox/charges/{id}/pay (cash-in)', () => {
  it('pays once with the named payer, stored as counterpart; a second payment answers 409', async () => {
    const a = (await cashIn(body({}, { value: 30 }), { 'x-sandbox-scenario': 'pending' })).json();
    const before = await h.balance(account.id);
    const payer = { name: 'Empresa Pagadora', document: cnpj(77), ispb: '00360305' };
    const res = await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, token, { payer });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      transactionId: a.transactionId,
      status: 'CONFIRMED',
      originalAmount: 30,
      endToEndId: expect.stringMatching(/^E00360305/),
      counterpart: { name: 'Empresa Pagadora', document: expect.stringMatching(/^\*\*\./), bank: { bankISPB: '00360305' } },
    });
    expect((await h.balance(account.id)).available).toBeCloseTo(before.available + 30, 2);
    const again = await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, token, { payer });
    expect(again.statusCode).toBe(409);
    expect((await h.balance(account.id)).available).toBeCloseTo(before.available + 30, 2);
    // The auto-pay job finds it paid and changes nothing.
    await h.advance(1);
    expect((await h.balance(account.id)).available).toBeCloseTo(before.available + 30, 2);
  });

  it('refuses another amount on a cash-in (modalidadeAlteracao 0), a foreign charge (404) and works with the admin token', async () => {
    const a = (await cashIn(body({}, { value: 30 }), { 'x-sandbox-scenario': 'pending' })).json();
    const other = await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, token, { amount: 31 });
    expect(other.statusCode).toBe(400);
    const stranger = await h.createAccount();
    const strangerToken = await h.tokenFor(stranger.id);
    expect((await h.api('POST', `/sandbox/charges/${a.transactionId}/pay`, strangerToken, {})).statusCode).toBe(404);
    expect((await h.admin('POST', `/sandbox/charges/${a.transactionId}/pay`, { accountId: stranger.id })).statusCode).toBe(404);
    const byAdmin = await h.admin('POST', `/sandbox/charges/${a.transactionId}/pay`, { accountId: account.id });
    expect(byAdmin.statusCode).toBe(200);
  });
});
