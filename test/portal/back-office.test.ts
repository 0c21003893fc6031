import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { portalClient, signedInMember } from './portal-client.ts';

/**
 * Issue 30 item 2: a charge with an outcome shows it instead of its QR code; a received PIX is
 * refunded from its page through the refund-in service, with its rules and refusals.
 */
let h: Harness;
let member: ReturnType<typeof portalClient>;
let accountId: number;

beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ name: 'Padaria Central', funds: 300 });
  accountId = account.id;
  member = await signedInMember(h, account.id, 'caixa@padaria.example');
});
afterAll(() => h.close());

const PT = { 'accept-language': 'pt-BR' };
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1] ?? '';
/** The hidden inputs of the form posting to `action`. */
function hiddenFields(html: string, action: string): Record<string, string> {
  const form = html.slice(html.indexOf(`action="${action}"`));
  const end = form.indexOf('</form>');
  return Object.fromEntries([...form.slice(0, end).matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
}

async function newCharge(value = '10,00', expiration = '60') {
  const created = await member.post('/portal/charges', { value, description: 'Bolo', expiration });
  expect(created.statusCode, created.body.slice(0, 300)).toBe(303);
  return String(created.headers.location).split('/').pop()!;
}

describe('a charge shows its outcome, not a QR code, once it has one', () => {
  it('an open charge shows its QR code and Copy button', async () => {
    const page = await member.get(`/portal/charges/${await newCharge()}`);
    expect(page.body).toContain('class="qr"');
    expect(page.body).toContain('data-copy="brcode"');
  });

  it('a paid charge shows "Paid" and when, no QR code, no Copy button; its status poll asks the page to reload', async () => {
    const id = await newCharge();
    expect((await h.admin('POST', `/sandbox/charges/${id}/pay`, { accountId })).statusCode).toBe(200);
    const page = await member.get(`/portal/charges/${id}`);
    expect(page.body).not.toContain('class="qr"');
    expect(page.body).not.toContain('data-copy="brcode"');
    expect(page.body).not.toContain('000201');
    expect(page.body).toMatch(/id="charge-outcome">This charge was paid on /);
    const status = await member.get(`/portal/charges/${id}/status`, { 'hx-request': 'true' });
    expect(status.headers['hx-refresh']).toBe('true');
  });

  it('an expired charge shows "Expired"', async () => {
    const id = await newCharge('10,00', '1');
    await h.advance(61);
    const page = await member.get(`/portal/charges/${id}`, PT);
    expect(page.body).not.toContain('class="qr"');
    expect(page.body).toMatch(/id="charge-outcome">Esta cobrança expirou em /);
  });

  it('a charge cancelled through the API shows "Cancelled"', async () => {
    const id = await newCharge();
    const row = await h.c.db.selectFrom('charges as c').innerJoin('transactions as t', 't.id', 'c.transaction_id').select('c.txid').where('t.transaction_id', '=', id).executeTakeFirstOrThrow();
    const token = await h.tokenFor(accountId);
    const cancelled = await h.api('PATCH', `/cob/${row.txid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const page = await member.get(`/portal/charges/${id}`);
    expect(page.body).not.toContain('data-copy="brcode"');
    expect(page.body).toMatch(/id="charge-outcome">This charge was cancelled on /);
  });
});

describe('refund a received PIX from the portal', () => {
  let received: string;
  beforeAll(async () => {
    received = (await h.deposit(accountId, 50)).transactionId;
  });

  it('a received PIX has "Refund"; amount and reason, a confirmation, then a refund-in that settles; the rest shrinks', async () => {
    const page = await member.get(`/portal/transactions/${received}`);
    expect(page.body).toContain(`href="/portal/transactions/${received}/refund"`);
    const start = await member.get(`/portal/transactions/${received}/refund`);
    expect(start.statusCode).toBe(200);
    expect(start.body).toContain('id="refundable">R$ 50,00<');
    const before = await h.balance(accountId);
    const review = await member.post(`/portal/transactions/${received}/refund/review`, { amount: '20,00', reason: 'Produto em falta' });
    expect(review.statusCode).toBe(200);
    expect(review.body).toContain('Refund R$ 20,00');
    // Nothing moved at the review.
    expect(await h.balance(accountId)).toEqual(before);
    const form = hiddenFields(review.body, `/portal/transactions/${received}/refund`);
    const sent = await member.post(`/portal/transactions/${received}/refund`, form);
    expect(sent.statusCode, sent.body.slice(0, 400)).toBe(303);
    // Confirm pressed twice refunds once.
    const twice = await member.post(`/portal/transactions/${received}/refund`, form);
    expect(twice.headers.location).toBe(sent.headers.location);
    await h.advance(2);
    const refundId = String(sent.headers.location).split('/').pop()!;
    const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', refundId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'REFUND_IN', status: 'CONFIRMED', original_amount: 2000, description: 'Produto em falta', external_id: form.externalId });
    expect((await h.balance(accountId)).available).toBeCloseTo(before.available - 20, 2);
    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'refund.send').where('target', '=', refundId).execute();
    expect(audit).toHaveLength(1);
    const again = await member.get(`/portal/transactions/${received}/refund`);
    expect(again.body).toContain('id="refundable">R$ 30,00<');
  });

  it("more than the refundable rest is refused with refund-in's refusal, in the page's language", async () => {
    const en = await member.post(`/portal/transactions/${received}/refund/review`, { amount: '30,01', reason: '' });
    expect(en.statusCode).toBe(400);
    expect(alertOf(en.body)).toBe('The refund amount is above what is still refundable of the original PIX.');
    const pt = await member.post(`/portal/transactions/${received}/refund/review`, { amount: '30,01', reason: '' }, PT);
    expect(alertOf(pt.body)).toBe('O valor da devolução excede o valor ainda disponível para devolução.');
  });

  it('the service decides at confirmation: a rest taken meanwhile by the API is refused there, and nothing moves', async () => {
    const review = await member.post(`/portal/transactions/${received}/refund/review`, { amount: '30,00', reason: '' });
    const form = hiddenFields(review.body, `/portal/transactions/${received}/refund`);
    const token = await h.tokenFor(accountId);
    expect((await h.api('POST', `/api/pix/refund-in/${received}`, token, { refundValue: 10 })).statusCode).toBe(201);
    const sent = await member.post(`/portal/transactions/${received}/refund`, form, PT);
    expect(sent.statusCode).toBe(400);
    expect(alertOf(sent.body)).toBe('O valor da devolução excede o valor ainda disponível para devolução.');
    expect(sent.body).toContain('id="refundable">R$ 20,00<');
  });

  it('a bad amount names the field; a payout, or another account\'s PIX, has no Refund', async () => {
    const bad = await member.post(`/portal/transactions/${received}/refund/review`, { amount: '1,234', reason: '' }, PT);
    expect(alertOf(bad.body)).toBe('Valor a devolver: um valor em reais com até 2 casas decimais, como 1.234,56.');
    const other = await h.createAccount({ funds: 10 });
    const foreign = (await h.c.db.selectFrom('transactions').select('transaction_id').where('account_id', '=', other.id).executeTakeFirstOrThrow()).transaction_id;
    expect((await member.get(`/portal/transactions/${foreign}/refund`)).statusCode).toBe(404);
    expect((await member.post(`/portal/transactions/${foreign}/refund/review`, { amount: '1,00', reason: '' })).statusCode).toBe(404);
  });

  it('past the 89-day deadline the page has no Refund and the service refuses it', async () => {
    const old = (await h.deposit(accountId, 5)).transactionId;
    await h.advance(90 * 86_400);
    expect((await member.get(`/portal/transactions/${old}`)).body).not.toContain(`/portal/transactions/${old}/refund"`);
    const review = await member.post(`/portal/transactions/${old}/refund/review`, { amount: '1,00', reason: '' });
    const sent = await member.post(`/portal/transactions/${old}/refund`, hiddenFields(review.body, `/portal/transactions/${old}/refund`), PT);
    expect(sent.statusCode).toBe(400);
    expect(alertOf(sent.body)).toBe('O prazo de 89 dias para devolução deste PIX expirou.');
  });
});

/** RFC 4180 records (quoted fields, doubled quotes, CRLF). */
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
    else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field), records.push(record), (record = []), (field = ''), i++;
    } else field += ch;
  }
  if (field !== '' || record.length) record.push(field), records.push(record);
  return records;
}

describe('the transaction list exports CSV with its filters', () => {
  let csvAccount: number;
  let csvMember: ReturnType<typeof portalClient>;
  beforeAll(async () => {
    const account = await h.createAccount({ name: 'Mercado CSV', funds: 1234.56 });
    csvAccount = account.id;
    csvMember = await signedInMember(h, account.id, 'csv@mercado.example');
    for (const amount of [10.5, 0.07, 99]) await h.deposit(csvAccount, amount);
    const review = await csvMember.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'fornecedor@example.com', amount: '12,34', description: '=HYPERLINK("x"), "pão"' });
    const form = Object.fromEntries([...review.body.slice(review.body.indexOf('action="/portal/payouts"')).matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"')]));
    expect((await csvMember.post('/portal/payouts', form)).statusCode).toBe(303);
  });

  it('the list links the export with its filters; the file is UTF-8 CSV, ISO dates, dot-decimal BRL, only the filtered rows', async () => {
    const list = await csvMember.get('/portal/transactions?type=PAYMENT&status=CONFIRMED');
    expect(list.body).toContain('href="/portal/transactions/export.csv?type=PAYMENT&amp;status=CONFIRMED"');
    const res = await csvMember.get('/portal/transactions/export.csv?type=PAYMENT&status=CONFIRMED');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="transactions-[\w.-]+\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(['transactionId', 'externalId', 'endToEndId', 'createdAt', 'processedAt', 'type', 'status', 'amount', 'fee', 'netAmount', 'counterpartName', 'counterpartDocument', 'description']);
    expect(rows.map((r) => r[5])).toEqual(['PAYMENT', 'PAYMENT', 'PAYMENT', 'PAYMENT']);
    expect(rows.map((r) => r[7]).sort()).toEqual(['0.07', '10.50', '1234.56', '99.00']);
    for (const r of rows) {
      expect(r).toHaveLength(13);
      expect(r[3]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(r[0]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("the payout's description keeps its comma, quotes and accent, and cannot run as a spreadsheet formula", async () => {
    const res = await csvMember.get('/portal/transactions/export.csv?type=WITHDRAW');
    const rows = parseCsv(res.body).slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]![7]).toBe('12.34');
    expect(rows[0]![12]).toBe(`'=HYPERLINK("x"), "pão"`);
    expect(res.body).toContain('pão');
  });

  it('a refused filter shows the list with its refusal, in the page language', async () => {
    const res = await csvMember.get('/portal/transactions/export.csv?startDate=2026-02-30');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/portal/transactions?startDate=2026-02-30');
    const list = await csvMember.get(String(res.headers.location), PT);
    expect(alertOf(list.body)).toBe('De: o valor informado não é aceito. Verifique e tente de novo.');
  });

  it('the export reads by keyset in batches: every row once, in the list order, even rows made in the same instant', async () => {
    // The harness clock is frozen: the deposits share one created_at, only the id orders them.
    const all = await h.c.transactions.browse(csvAccount, { size: 100 });
    const seen: string[] = [];
    for await (const tx of h.c.transactions.exportRows(csvAccount, {}, { batchSize: 2 })) seen.push(tx.transaction_id);
    expect(seen).toEqual(all.rows.map((r) => r.transaction_id));
    const capped: string[] = [];
    for await (const tx of h.c.transactions.exportRows(csvAccount, {}, { batchSize: 2, maxRows: 3 })) capped.push(tx.transaction_id);
    expect(capped).toEqual(seen.slice(0, 3));
  });

  it("another account's member exports only their own rows", async () => {
    const res = await member.get('/portal/transactions/export.csv?type=PAYMENT');
    const ids = parseCsv(res.body).slice(1).map((r) => r[0]);
    const mine = await h.c.db.selectFrom('transactions').select('transaction_id').where('account_id', '=', csvAccount).execute();
    for (const { transaction_id } of mine) expect(ids).not.toContain(transaction_id);
  });
});
