import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cpf } from '../factories.ts';
import { cashOutBody, payer, txRow } from '../payouts/helpers.ts';
import { OPERATOR, portalClient, signedInMember, signedInOperator } from '../portal/portal-client.ts';

// Issue 30 item 4 (decisions 8): the admin API's last holes, each through HTTP with the admin token,
// in the short error form, audited with actor `admin-api`.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const auditOf = (action: string, accountId?: number) => {
  let q = h.c.db.selectFrom('audit_log').selectAll().where('action', '=', action);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.orderBy('id').execute();
};
const noToken = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string) => h.app.inject({ method, url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
const SHORT_404 = { statusCode: 404, error: 'Not Found', message: expect.any(String) };

describe('GET /admin/accounts/{id}/certificates', () => {
  it("lists the account's certificates newest first with fingerprint, subject, validity and revocation, paged as every admin list", async () => {
    const account = await h.createAccount({ name: 'Certificados Ltda' });
    const first = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    h.clock.advance(1);
    const second = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    expect((await h.admin('DELETE', `/admin/certificates/${first.fingerprint}`)).statusCode).toBe(204);
    // Another account's certificate is not listed.
    const other = await h.createAccount();
    await h.admin('POST', `/admin/accounts/${other.id}/certificates`, {});

    const res = await h.admin('GET', `/admin/accounts/${account.id}/certificates`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { fingerprint: second.fingerprint, subject: expect.stringContaining('Certificados Ltda'), notBefore: expect.any(String), notAfter: expect.any(String), revoked: false, revokedAt: null, createdAt: expect.any(String) },
        { fingerprint: first.fingerprint, subject: expect.stringContaining('Certificados Ltda'), notBefore: expect.any(String), notAfter: expect.any(String), revoked: true, revokedAt: expect.any(String), createdAt: expect.any(String) },
      ],
      metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
    });
    const [item] = res.json().data;
    expect(new Date(item.notAfter).getTime() - new Date(item.notBefore).getTime()).toBeGreaterThan(364 * 86_400_000);
    expect(JSON.stringify(res.json())).not.toMatch(/PRIVATE KEY/);

    const paged = await h.admin('GET', `/admin/accounts/${account.id}/certificates?page=2&pageSize=1`);
    expect(paged.json()).toEqual({ data: [expect.objectContaining({ fingerprint: first.fingerprint })], metadata: { total: 2, page: 2, pageSize: 1, totalPages: 2 } });
  });

  it('404 for an unknown account and 401 without the admin token, in the short form', async () => {
    const unknown = await h.admin('GET', '/admin/accounts/999999/certificates');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(SHORT_404);
    const anonymous = await noToken('GET', '/admin/accounts/1/certificates');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
  });
});

describe('DELETE /admin/operators/{id}', () => {
  it("204; the operator's open portal session ends at once, they cannot sign in again; audited as admin-api", async () => {
    const operator = await signedInOperator(h);
    expect((await operator.get('/portal/admin/accounts')).statusCode).toBe(200);
    const listed = (await h.admin('GET', '/admin/operators?pageSize=100')).json().data as Array<{ id: number; email: string }>;
    const id = listed.find((o) => o.email === OPERATOR.email)!.id;

    const removed = await h.admin('DELETE', `/admin/operators/${id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    // The open session is over: the next page sends the browser to sign in.
    const after = await operator.get('/portal/admin/accounts');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(/^\/portal\/sign-in/);
    const again = portalClient(h, { address: '10.40.0.1' });
    await again.get('/portal/sign-in');
    expect((await again.post('/portal/sign-in', { email: OPERATOR.email, password: OPERATOR.password })).statusCode).toBe(401);
    expect(((await h.admin('GET', '/admin/operators?pageSize=100')).json().data as Array<{ id: number }>).map((o) => o.id)).not.toContain(id);
    expect(await auditOf('operator.remove')).toEqual([expect.objectContaining({ actor: 'admin-api', target: `operator:${id}`, before: { email: OPERATOR.email } })]);

    // Gone is gone: a second delete is a 404, and a member is not an operator.
    expect((await h.admin('DELETE', `/admin/operators/${id}`)).json()).toEqual(SHORT_404);
    const account = await h.createAccount();
    const member = (await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'not-an-operator@example.com' })).json();
    expect((await h.admin('DELETE', `/admin/operators/${member.id}`)).statusCode).toBe(404);
    expect((await noToken('DELETE', `/admin/operators/${member.id}`)).statusCode).toBe(401);
    // The same e-mail can be an operator again.
    expect((await h.admin('POST', '/admin/operators', OPERATOR)).statusCode).toBe(201);
  });
});

describe('PATCH /admin/accounts/{id}', () => {
  it('renames the account (200 the account), audited with the name before and after; an empty body changes nothing', async () => {
    const account = await h.createAccount({ name: 'Nome Antigo' });
    const res = await h.admin('PATCH', `/admin/accounts/${account.id}`, { name: '  Nome Novo Ltda ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: account.id, name: 'Nome Novo Ltda', document: account.document, status: 'ACTIVE', limits: expect.any(Object), fees: expect.any(Object) });
    expect((await h.admin('GET', `/admin/accounts/${account.id}`)).json().name).toBe('Nome Novo Ltda');
    expect(await auditOf('account.update', account.id)).toEqual([
      expect.objectContaining({ actor: 'admin-api', target: `account:${account.id}`, before: expect.objectContaining({ name: 'Nome Antigo' }), after: expect.objectContaining({ name: 'Nome Novo Ltda' }) }),
    ]);
    const unchanged = await h.admin('PATCH', `/admin/accounts/${account.id}`, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().name).toBe('Nome Novo Ltda');
    expect(await auditOf('account.update', account.id)).toHaveLength(1);
  });

  it('a blank or too long name is a 400 naming the field; an unknown account 404; no token 401', async () => {
    const account = await h.createAccount();
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await h.admin('PATCH', `/admin/accounts/${account.id}`, { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(JSON.stringify(res.json().message)).toContain('name');
    }
    expect((await h.admin('PATCH', '/admin/accounts/999999', { name: 'X' })).json()).toEqual(SHORT_404);
    expect((await noToken('PATCH', `/admin/accounts/${account.id}`)).statusCode).toBe(401);
  });
});

describe('POST /admin/accounts/{id}/suspend and /reactivate', () => {
  it('answer the account with its status; each change is audited once (repeating it changes nothing); 404 and 401 as every admin route', async () => {
    const account = await h.createAccount();
    expect((await h.admin('GET', `/admin/accounts/${account.id}`)).json().status).toBe('ACTIVE');
    const suspended = await h.admin('POST', `/admin/accounts/${account.id}/suspend`);
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toMatchObject({ id: account.id, status: 'SUSPENDED', balance: expect.any(Object) });
    expect((await h.admin('POST', `/admin/accounts/${account.id}/suspend`)).json().status).toBe('SUSPENDED');
    expect((await h.admin('GET', `/admin/accounts/${account.id}`)).json().status).toBe('SUSPENDED');
    const listed = (await h.admin('GET', `/admin/accounts?q=${account.id}`)).json().data;
    expect(listed).toEqual([expect.objectContaining({ id: account.id, status: 'SUSPENDED' })]);
    const reactivated = await h.admin('POST', `/admin/accounts/${account.id}/reactivate`);
    expect(reactivated.statusCode).toBe(200);
    expect(reactivated.json()).toMatchObject({ id: account.id, status: 'ACTIVE' });
    expect(await auditOf('account.suspend', account.id)).toEqual([expect.objectContaining({ actor: 'admin-api', before: { status: 'ACTIVE' }, after: { status: 'SUSPENDED' } })]);
    expect(await auditOf('account.reactivate', account.id)).toEqual([expect.objectContaining({ actor: 'admin-api', before: { status: 'SUSPENDED' }, after: { status: 'ACTIVE' } })]);
    expect((await h.admin('POST', '/admin/accounts/999999/suspend')).json()).toEqual(SHORT_404);
    expect((await noToken('POST', `/admin/accounts/${account.id}/reactivate`)).statusCode).toBe(401);
  });

  it("a suspended account's token gets 403 ACCOUNT_SUSPENDED on every money-moving call; reads and charges stay allowed; reactivated, it pays again", async () => {
    const a = await payer(h, 200);
    const other = await h.createAccount();
    // A received PIX to refund later, and a cob of another account to pay by QR code.
    const received = (await h.deposit(a.id, 50)) as { id: number };
    const otherToken = await h.tokenFor(other.id);
    const txid = `susp${randomUUID().replaceAll('-', '')}`.slice(0, 30);
    const cob = (await h.api('PUT', `/cob/${txid}`, otherToken, { calendario: { expiracao: 3600 }, valor: { original: '3.00' }, chave: other.pixKey })).json();
    expect((await h.admin('POST', `/admin/accounts/${a.id}/suspend`)).statusCode).toBe(200);

    const cashOut = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 5 }));
    expect(cashOut.statusCode).toBe(403);
    expect(cashOut.json()).toMatchObject({ statusCode: 403, code: 'ACCOUNT_SUSPENDED', errorCode: 'ACCOUNT_SUSPENDED', message: expect.stringContaining('suspended') });
    const qr = await h.api('POST', '/api/pix/cash-out-qrcode', a.token, { value: 3, qrCode: cob.pixCopiaECola, externalId: randomUUID() });
    expect(qr.statusCode).toBe(403);
    expect(qr.json().code).toBe('ACCOUNT_SUSPENDED');
    const dict = await h.api('POST', '/dict/pix', a.token, { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 1 } }, { 'x-idempotency-key': randomUUID() });
    expect(dict.statusCode).toBe(403);
    expect(dict.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringContaining('ACCOUNT_SUSPENDED') });
    const refund = await h.api('POST', `/api/pix/refund-in/${received.id}`, a.token, { refundValue: 1 });
    expect(refund.statusCode).toBe(403);
    expect(refund.json().code).toBe('ACCOUNT_SUSPENDED');
    const receivedRow = await h.c.db.selectFrom('transactions').select(['end_to_end_id']).where('id', '=', received.id).executeTakeFirstOrThrow();
    const devolucao = await h.api('PUT', `/pix/${receivedRow.end_to_end_id}/devolucao/D${Date.now()}`, a.token, { valor: '1.00' });
    expect(devolucao.statusCode).toBe(403);
    // Nothing moved.
    expect(await h.balance(a.id)).toEqual({ available: 250, blocked: 0 });
    expect((await h.api('GET', `/cob/${txid}`, otherToken)).json().status).toBe('ATIVA');

    // Reads are allowed, and so are charges (money coming in).
    expect((await h.api('GET', '/api/balance', a.token)).statusCode).toBe(200);
    expect((await h.api('GET', '/api/transactions', a.token)).statusCode).toBe(200);
    expect((await h.api('GET', `/api/pix/transaction/${received.id}`, a.token)).statusCode).toBe(200);
    const charge = await h.api('POST', '/api/pix/cash-in', a.token, { transaction: { value: 10, description: 'Venda', externalId: randomUUID() }, payer: { fullName: 'Cliente', document: cpf(3) } });
    expect(charge.statusCode, charge.body).toBe(201);

    expect((await h.admin('POST', `/admin/accounts/${a.id}/reactivate`)).statusCode).toBe(200);
    const again = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 5 }));
    expect(again.statusCode).toBe(201);
  });

  it('incoming PIX are still credited and a payout admitted before the suspension settles: nothing in flight is lost', async () => {
    const a = await payer(h, 100);
    const pending = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 20 }));
    expect(pending.json().status).toBe('PENDING');
    const charge = await h.api('POST', '/api/pix/cash-in', a.token, { transaction: { value: 15, description: 'Antes', externalId: randomUUID() }, payer: { fullName: 'Cliente', document: cpf(4) } });
    expect(charge.statusCode).toBe(201);
    expect((await h.admin('POST', `/admin/accounts/${a.id}/suspend`)).statusCode).toBe(200);

    // The sandbox's payer pays the charge after the settlement delay, and the payout settles.
    await h.advance(1);
    expect((await txRow(h, pending.json().transactionId)).status).toBe('CONFIRMED');
    expect((await txRow(h, charge.json().transactionId)).status).toBe('CONFIRMED');
    // More PIX in: a deposit, and another account paying the suspended account's key (on-us).
    await h.deposit(a.id, 30);
    const b = await payer(h, 100);
    const toKey = await h.api('POST', '/api/pix/cash-out', b.token, cashOutBody({ value: 7 }, { key: a.pixKey, keyType: 'RANDOM', name: a.name, document: a.document }));
    expect(toKey.statusCode, toKey.body).toBe(201);
    expect(toKey.json().status).toBe('CONFIRMED');
    expect(await h.balance(a.id)).toEqual({ available: 100 - 20 + 15 + 30 + 7, blocked: 0 });
    expect((await h.api('GET', '/api/balance', a.token)).statusCode).toBe(200);
  });

  it("the portal: a member of a suspended account sees a banner on every page and Send a PIX is refused with 403; reads work", async () => {
    const account = await h.createAccount({ funds: 100 });
    const member = await signedInMember(h, account.id, `suspended${account.id}@example.com`);
    expect((await member.get('/portal')).body).not.toContain('id="account-suspended"');
    await h.admin('POST', '/sandbox/dict/keys', { key: 'recebedor@example.com', keyType: 'EMAIL', name: 'Recebedor', document: cpf(909), ispb: '60746948' });
    const review = await member.post('/portal/payouts/review', { keyType: 'EMAIL', key: 'recebedor@example.com', amount: '10,00', description: 'x' });
    expect(review.statusCode).toBe(200);
    const form = Object.fromEntries([...review.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));

    expect((await h.admin('POST', `/admin/accounts/${account.id}/suspend`)).statusCode).toBe(200);
    for (const page of ['/portal', '/portal/transactions', '/portal/payouts']) {
      const res = await member.get(page);
      expect(res.statusCode, page).toBe(200);
      expect(res.body, page).toContain('id="account-suspended"');
      expect(res.body, page).toContain('This account is suspended');
    }
    const sent = await member.post('/portal/payouts', form);
    expect(sent.statusCode).toBe(403);
    expect(sent.body).toContain('Account suspended');
    expect(await h.balance(account.id)).toEqual({ available: 100, blocked: 0 });

    expect((await h.admin('POST', `/admin/accounts/${account.id}/reactivate`)).statusCode).toBe(200);
    expect((await member.get('/portal')).body).not.toContain('id="account-suspended"');
    expect((await member.post('/portal/payouts', form)).statusCode).toBe(303);
  });
});

describe('GET /admin/accounts/{id}/webhooks', () => {
  it('answers {data, metadata} like every other admin list (the old {accountId, webhooks, total} is gone)', async () => {
    const account = await h.createAccount();
    for (const [eventType, url] of [['cash_in', 'http://127.0.0.1:9/in'], ['cash_out', 'http://127.0.0.1:9/out'], ['refund_in', 'http://127.0.0.1:9/refund']]) {
      const registered = await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType, url });
      expect(registered.statusCode, registered.body).toBeLessThan(300);
    }
    const res = await h.admin('GET', `/admin/accounts/${account.id}/webhooks`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'metadata']);
    expect(body.metadata).toEqual({ total: 3, page: 1, pageSize: 20, totalPages: 1 });
    expect(body.data.map((w: { url: string }) => w.url)).toEqual(['http://127.0.0.1:9/in', 'http://127.0.0.1:9/out', 'http://127.0.0.1:9/refund']);
    expect(body.data[0]).toMatchObject({ id: expect.any(Number), type: 'cash_in', url: 'http://127.0.0.1:9/in' });
    const page2 = (await h.admin('GET', `/admin/accounts/${account.id}/webhooks?page=2&pageSize=2`)).json();
    expect(page2).toEqual({ data: [expect.objectContaining({ url: 'http://127.0.0.1:9/refund' })], metadata: { total: 3, page: 2, pageSize: 2, totalPages: 2 } });
    expect((await h.admin('GET', '/admin/accounts/999999/webhooks')).json()).toEqual(SHORT_404);
  });
});

