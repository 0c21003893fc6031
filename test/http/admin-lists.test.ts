import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsRepo } from '../../src/db/repos/accounts.repo.ts';
import { client, requestToken } from '../auth/auth-helpers.ts';
import { cnpj, cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { portalClient, signedInMember } from '../portal/portal-client.ts';

/** Issue 21 item 3: the admin API lists what the portal's back office shows, and acts on it. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const auditOf = (target: string) => h.c.db.selectFrom('audit_log').selectAll().where('target', '=', target).orderBy('id').execute();

describe('GET /admin/accounts', () => {
  it('pages every account newest first, with the metadata of the spec\'s lists', async () => {
    const made = [await h.createAccount(), await h.createAccount(), await h.createAccount()];
    const first = await h.admin('GET', '/admin/accounts?pageSize=2');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.data.map((a: { id: number }) => a.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(body.metadata).toEqual({ total: expect.any(Number), page: 1, pageSize: 2, totalPages: Math.ceil(body.metadata.total / 2) });
    expect(body.metadata.total).toBeGreaterThanOrEqual(3);
    expect(body.data[0]).toEqual({ ...made[2], createdAt: expect.any(String), balance: { available: 0, blocked: 0 } });
    const second = (await h.admin('GET', '/admin/accounts?pageSize=2&page=2')).json();
    expect(second.data[0].id).toBe(made[0]!.id);
    expect(second.metadata.page).toBe(2);
    const past = (await h.admin('GET', `/admin/accounts?pageSize=2&page=${body.metadata.totalPages + 1}`)).json();
    expect(past.data).toEqual([]);
  });

  it('q finds an account by a part of its name (any case), its document (punctuated or not), its id and its PIX keys', async () => {
    const target = await h.createAccount({ name: 'Padaria Pão Quente Ltda', document: cnpj(4242), funds: 12.5 });
    const other = await h.createAccount({ name: 'Mercado Azul', document: cpf(4343) });
    await accountsRepo.addKey(h.c.db, target.id, 'padaria@example.com', 'EMAIL', h.clock.now());
    const ids = async (q: string) => ((await h.admin('GET', `/admin/accounts?q=${encodeURIComponent(q)}`)).json().data as Array<{ id: number }>).map((a) => a.id);
    expect(await ids('pão quente')).toEqual([target.id]);
    expect(await ids('PADARIA')).toEqual([target.id]);
    const doc = cnpj(4242);
    expect(await ids(doc)).toEqual([target.id]);
    expect(await ids(`${doc.slice(0, 2)}.${doc.slice(2, 5)}.${doc.slice(5, 8)}/${doc.slice(8, 12)}-${doc.slice(12)}`)).toEqual([target.id]);
    expect(await ids(String(target.id))).toContain(target.id);
    expect(await ids(target.pixKey)).toEqual([target.id]);
    expect(await ids('Padaria@Example.com')).toEqual([target.id]);
    expect(await ids('nobody has this name')).toEqual([]);
    // LIKE's wildcards are text here, not patterns.
    expect(await ids('%')).toEqual([]);
    expect(await ids('Azul')).toEqual([other.id]);
    const found = (await h.admin('GET', `/admin/accounts?q=${target.pixKey}`)).json();
    expect(found.data[0].balance).toEqual({ available: 12.5, blocked: 0 });
    expect(found.metadata).toEqual({ total: 1, page: 1, pageSize: 20, totalPages: 1 });
  });

  it('refuses bad query values with a 400 naming the field, and calls without the admin token', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['pageSize=101', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      [`q=${'a'.repeat(101)}`, 'q'],
    ] as const) {
      const res = await h.admin('GET', `/admin/accounts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: [expect.stringMatching(new RegExp(`^${field} `))] });
    }
    const anonymous = await h.app.inject({ method: 'GET', url: '/admin/accounts' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
  });
});

describe('credentials', () => {
  it('lists the account\'s credentials without any secret, newest first; an unknown account is a 404', async () => {
    const account = await h.createAccount();
    const a = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, { scopes: ['balance:read'] })).json();
    h.clock.advance(1);
    const b = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    const res = await h.admin('GET', `/admin/accounts/${account.id}/credentials`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(a.clientSecret);
    expect(res.body).not.toContain(b.clientSecret);
    expect(res.body).not.toMatch(/secret|hash/i);
    expect(res.json()).toEqual({
      data: [
        { clientId: b.clientId, scopes: b.scopes, status: 'ACTIVE', createdAt: expect.any(String), revokedAt: null },
        { clientId: a.clientId, scopes: ['balance:read'], status: 'ACTIVE', createdAt: expect.any(String), revokedAt: null },
      ],
      metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
    });
    expect((await h.admin('GET', `/admin/accounts/${account.id}/credentials?pageSize=1&page=2`)).json().data.map((c: { clientId: string }) => c.clientId)).toEqual([a.clientId]);
    expect((await h.admin('GET', '/admin/accounts/987654/credentials')).statusCode).toBe(404);
    expect((await h.admin('GET', `/admin/accounts/${account.id}/credentials?pageSize=500`)).json().message).toEqual([expect.stringMatching(/^pageSize /)]);
  });

  it('DELETE revokes one: its tokens stop on the very next request, new tokens are refused; audited as admin-api', async () => {
    const c = await client(h);
    const grant = () => requestToken(h, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
    const token = (await grant()).json().access_token as string;
    const balance = () => h.api('GET', '/api/balance', token, undefined, { 'x-ssl-client-cert': encodeURIComponent(c.pem) });
    expect((await balance()).statusCode).toBe(200);
    expect((await balance()).statusCode).toBe(200);

    const revoked = await h.admin('DELETE', `/admin/accounts/${c.account.id}/credentials/${c.clientId}`);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await balance()).statusCode).toBe(401);
    expect((await grant()).statusCode).toBe(401);
    const listed = (await h.admin('GET', `/admin/accounts/${c.account.id}/credentials`)).json().data;
    expect(listed).toEqual([expect.objectContaining({ clientId: c.clientId, status: 'REVOKED', revokedAt: h.clock.now().toISOString() })]);
    const audit = await auditOf(`credential:${c.clientId}`);
    expect(audit.map((r) => [r.action, r.actor, r.account_id])).toEqual([
      ['credential.create', 'admin-api', c.account.id],
      ['credential.revoke', 'admin-api', c.account.id],
    ]);
    // Once revoked, it is gone: 404, as for a credential that never existed.
    expect((await h.admin('DELETE', `/admin/accounts/${c.account.id}/credentials/${c.clientId}`)).statusCode).toBe(404);
  });

  it('another account\'s credential, an unknown account or clientId answer 404; a malformed clientId 400 naming it', async () => {
    const owner = await client(h);
    const other = await h.createAccount();
    const foreign = await h.admin('DELETE', `/admin/accounts/${other.id}/credentials/${owner.clientId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    expect((await h.admin('DELETE', `/admin/accounts/987654/credentials/${owner.clientId}`)).statusCode).toBe(404);
    expect((await h.admin('DELETE', `/admin/accounts/${owner.account.id}/credentials/3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24`)).statusCode).toBe(404);
    const bad = await h.admin('DELETE', `/admin/accounts/${owner.account.id}/credentials/not-a-uuid`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual([expect.stringMatching(/^clientId /)]);
    // Still active: nothing above touched it.
    expect((await h.admin('GET', `/admin/accounts/${owner.account.id}/credentials`)).json().data[0].status).toBe('ACTIVE');
  });
});

describe('members and operators', () => {
  it('lists the account\'s members (invited, active); DELETE removes one and ends their portal session at once', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, `clerk${account.id}@example.com`);
    const invited = (await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: `new${account.id}@example.com` })).json();
    const list = await h.admin('GET', `/admin/accounts/${account.id}/members`);
    expect(list.statusCode).toBe(200);
    const members = list.json().data as Array<{ id: number; email: string; status: string }>;
    expect(members).toEqual([
      { id: expect.any(Number), email: `clerk${account.id}@example.com`, status: 'ACTIVE', createdAt: expect.any(String) },
      { id: invited.id, email: `new${account.id}@example.com`, status: 'INVITED', createdAt: expect.any(String) },
    ]);
    expect((await member.get('/portal')).statusCode).toBe(200);

    const removed = await h.admin('DELETE', `/admin/accounts/${account.id}/members/${members[0]!.id}`);
    expect(removed.statusCode).toBe(204);
    const after = await member.get('/portal');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(/\/portal\/sign-in/);
    // Their password no longer signs in either.
    const again = portalClient(h);
    await again.get('/portal/sign-in');
    expect((await again.post('/portal/sign-in', { email: `clerk${account.id}@example.com`, password: 'a long enough password' })).statusCode).toBe(401);
    expect((await h.admin('GET', `/admin/accounts/${account.id}/members`)).json().data.map((m: { id: number }) => m.id)).toEqual([invited.id]);
    const audit = await auditOf(`member:${members[0]!.id}`);
    expect(audit.map((r) => `${r.action} by ${r.actor_email ?? r.actor}`)).toEqual([
      'member.invite by admin-api',
      `member.accept-invitation by clerk${account.id}@example.com`,
      'member.remove by admin-api',
    ]);
    expect((await h.admin('DELETE', `/admin/accounts/${account.id}/members/${members[0]!.id}`)).statusCode).toBe(404);
  });

  it('a member of another account, an unknown account or member answer 404; a bad memberId 400 naming it', async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const invited = (await h.admin('POST', `/admin/accounts/${a.id}/members`, { email: `x${a.id}@example.com` })).json();
    expect((await h.admin('DELETE', `/admin/accounts/${b.id}/members/${invited.id}`)).statusCode).toBe(404);
    expect((await h.admin('DELETE', `/admin/accounts/987654/members/${invited.id}`)).statusCode).toBe(404);
    expect((await h.admin('GET', '/admin/accounts/987654/members')).statusCode).toBe(404);
    const bad = await h.admin('DELETE', `/admin/accounts/${a.id}/members/abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual([expect.stringMatching(/^memberId /)]);
    expect((await h.admin('GET', `/admin/accounts/${a.id}/members`)).json().data).toHaveLength(1);
  });

  it('lists the operators, oldest first, paged', async () => {
    for (const email of ['op-a@example.com', 'op-b@example.com']) {
      expect((await h.admin('POST', '/admin/operators', { email, password: 'a long operator password' })).statusCode).toBe(201);
    }
    const all = (await h.admin('GET', '/admin/operators?pageSize=100')).json();
    const emails = all.data.map((o: { email: string }) => o.email);
    expect(emails.indexOf('op-a@example.com')).toBeLessThan(emails.indexOf('op-b@example.com'));
    expect(all.data[0]).toEqual({ id: expect.any(Number), email: expect.any(String), createdAt: expect.any(String) });
    expect(JSON.stringify(all)).not.toMatch(/password/i);
    const one = (await h.admin('GET', '/admin/operators?pageSize=1&page=2')).json();
    expect(one.data).toEqual([all.data[1]]);
    expect(one.metadata).toEqual({ total: all.metadata.total, page: 2, pageSize: 1, totalPages: all.metadata.total });
  });
});

describe('one paging shape for every admin list', () => {
  it('GET /admin/network/suspense pages like the others (metadata, pageSize), keeping its former total, page and size', async () => {
    const paged = await h.admin('GET', '/admin/network/suspense?pageSize=5');
    expect(paged.statusCode).toBe(200);
    expect(paged.json()).toEqual({ data: [], metadata: { total: 0, page: 1, pageSize: 5, totalPages: 0 }, total: 0, page: 1, size: 5 });
    expect((await h.admin('GET', '/admin/network/suspense?size=7')).json().metadata.pageSize).toBe(7);
    expect((await h.admin('GET', '/admin/network/suspense?pageSize=101')).json().message).toEqual([expect.stringMatching(/^pageSize /)]);
  });
});
