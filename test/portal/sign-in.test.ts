import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureKeys } from '../../src/services/auth/failure-limits.ts';
import { startHarness, type Harness } from '../harness.ts';
import { OPERATOR, portalClient, signedInMember, signedInOperator } from './portal-client.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('operators and members (admin API)', () => {
  it('POST /admin/operators creates an operator who can sign in; the password is not stored in clear', async () => {
    const res = await h.admin('POST', '/admin/operators', { email: 'Boss@Example.com', password: 'twelve chars!' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), email: 'boss@example.com' });
    const row = await h.c.db.selectFrom('portal_users').select('password_hash').where('email', '=', 'boss@example.com').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    const client = portalClient(h);
    await client.get('/portal/sign-in');
    const signIn = await client.post('/portal/sign-in', { email: 'boss@example.com', password: 'twelve chars!' });
    expect(signIn.statusCode).toBe(303);
    expect(signIn.headers.location).toBe('/portal/admin/accounts');
  });

  it('refuses a short password, a bad email and a duplicate, naming the field', async () => {
    const short = await h.admin('POST', '/admin/operators', { email: 'x@example.com', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json().message)).toContain('password');
    const bad = await h.admin('POST', '/admin/operators', { email: 'not-an-email', password: 'long enough password' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().message)).toContain('email');
    await h.admin('POST', '/admin/operators', { email: 'dup@example.com', password: 'long enough password' });
    const dup = await h.admin('POST', '/admin/operators', { email: 'DUP@example.com', password: 'long enough password' });
    expect(dup.statusCode).toBe(409);
    const noToken = await h.app.inject({ method: 'POST', url: '/admin/operators', payload: { email: 'y@example.com', password: 'long enough password' } });
    expect(noToken.statusCode).toBe(401);
  });

  it('invites a member with a one-time absolute link valid 72 h where they set a password of at least 12 characters', async () => {
    const account = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'ana@example.com' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(Number), email: 'ana@example.com', invitationUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/portal\/invitations\/[A-Za-z0-9_-]{40,}$/) });
    const path = new URL(body.invitationUrl).pathname;
    const client = portalClient(h);
    const page = await client.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toContain('>Set password</button>');
    expect(page.body).toContain(account.name);

    const short = await client.post(path, { password: 'elevenchars' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 12 characters');

    const ok = await client.post(path, { password: 'exactly12chr' });
    expect(ok.statusCode).toBe(303);
    const again = await client.post(path, { password: 'another password' });
    expect(again.statusCode).toBe(404);
    expect((await portalClient(h).get(path)).statusCode).toBe(404);

    await client.get('/portal/sign-in');
    const signIn = await client.post('/portal/sign-in', { email: 'ana@example.com', password: 'exactly12chr' });
    expect(signIn.statusCode).toBe(303);
    expect(signIn.headers.location).toBe('/portal');
  });

  it('an invitation older than 72 hours no longer opens', async () => {
    const account = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'late@example.com' });
    const path = new URL(res.json().invitationUrl).pathname;
    const user = await h.c.db.selectFrom('portal_users').select('id').where('email', '=', 'late@example.com').executeTakeFirstOrThrow();
    await h.c.db.updateTable('portal_invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    expect((await portalClient(h).get(path)).statusCode).toBe(404);
  });

  it('inviting to an unknown account answers 404; both admin changes are in the audit log', async () => {
    expect((await h.admin('POST', '/admin/accounts/999999/members', { email: 'z@example.com' })).statusCode).toBe(404);
    const rows = await h.c.db.selectFrom('audit_log').selectAll().where('actor', '=', 'admin-api').execute();
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['operator.create', 'member.invite']));
    expect(rows.find((r) => r.action === 'member.invite')?.after).toEqual({ email: 'ana@example.com' });
  });
});

describe('sign-in, sessions and CSRF', () => {
  it('the sign-in page has the Email and Password fields and the Sign in button; pt-BR by default', async () => {
    const en = await portalClient(h).get('/portal/sign-in');
    expect(en.body).toContain('<label for="email">Email</label>');
    expect(en.body).toContain('<label for="password">Password</label>');
    expect(en.body).toContain('>Sign in</button>');
    const pt = await h.app.inject({ method: 'GET', url: '/portal/sign-in' });
    expect(pt.body).toContain('<html lang="pt-BR">');
    expect(pt.body).toContain('>Entrar</button>');
  });

  it('the language switch is remembered in a cookie', async () => {
    const client = portalClient(h, { lang: 'en' });
    const res = await client.get('/portal/language/pt-BR?next=%2Fportal%2Fsign-in');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/portal/sign-in');
    expect((await client.get('/portal/sign-in')).body).toContain('>Entrar</button>');
    const evil = await client.get('/portal/language/en?next=https%3A%2F%2Fevil.example');
    expect(evil.headers.location).toBe('/portal');
  });

  it('sets an httpOnly SameSite=Lax session cookie, Secure outside localhost', async () => {
    await h.admin('POST', '/admin/operators', OPERATOR);
    const local = portalClient(h);
    await local.get('/portal/sign-in');
    const res = await local.post('/portal/sign-in', { email: OPERATOR.email, password: OPERATOR.password });
    const cookie = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('pix_portal_session=')));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/portal/);
    expect(cookie).not.toMatch(/Secure/);

    const remote = portalClient(h, { host: 'portal.example.com', address: '10.1.1.1' });
    await remote.get('/portal/sign-in');
    const res2 = await remote.post('/portal/sign-in', { email: OPERATOR.email, password: OPERATOR.password });
    expect(String([res2.headers['set-cookie']].flat().find((c) => String(c).startsWith('pix_portal_session=')))).toMatch(/Secure/);
  });

  it('pages need a session: without one, a redirect to sign-in that comes back after', async () => {
    const anon = portalClient(h);
    const res = await anon.get('/portal/transactions?type=PAYMENT');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/portal/sign-in?next=%2Fportal%2Ftransactions%3Ftype%3DPAYMENT');
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'next@example.com');
    await member.post('/portal/sign-out');
    await member.get('/portal/sign-in?next=%2Fportal%2Ftransactions%3Ftype%3DPAYMENT');
    const back = await member.post('/portal/sign-in', { email: 'next@example.com', password: 'a long enough password', next: '/portal/transactions?type=PAYMENT' });
    expect(back.headers.location).toBe('/portal/transactions?type=PAYMENT');
    // Another site as `next` (with a valid CSRF token, so the sign-in itself succeeds): home instead.
    for (const evil of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example/x']) {
      const visitor = portalClient(h);
      await visitor.get('/portal/sign-in');
      const res = await visitor.post('/portal/sign-in', { email: 'next@example.com', password: 'a long enough password', next: evil });
      expect(res.statusCode, evil).toBe(303);
      expect(res.headers.location, evil).toBe('/portal');
    }
  });

  it('refuses a state-changing request without the CSRF token (403) and changes nothing', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'csrf@example.com');
    const forged = await member.post('/portal/sign-out', { _csrf: '' });
    expect(forged.statusCode).toBe(403);
    const wrong = await member.post('/portal/sign-out', { _csrf: 'x'.repeat(32) });
    expect(wrong.statusCode).toBe(403);
    expect((await member.get('/portal')).statusCode).toBe(200);
    // Sign-in itself needs the pre-session token: a cross-site form cannot sign a victim in.
    const noCookie = await h.app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      payload: 'email=csrf%40example.com&password=a+long+enough+password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(noCookie.statusCode).toBe(403);
  });

  it('every state-changing portal route refuses a request without the CSRF token (403) and changes nothing', async () => {
    const account = await h.createAccount({ funds: 100 });
    const member = await signedInMember(h, account.id, 'csrf-all@example.com');
    const routes = ['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => routePaths(h.app.printRoutes({ method, commonPrefix: false })).map((path) => ({ method, path })));
    const portal = routes.filter((r) => r.path.startsWith('/portal/'));
    // The parser found the routes (a broken one would make this test pass on nothing).
    expect(portal.length).toBeGreaterThan(25);
    expect(portal.map((r) => r.path)).toEqual(expect.arrayContaining(['/portal/payouts', '/portal/admin/accounts/:id/limits', '/portal/sandbox/deposit']));
    const count = async (table: 'audit_log' | 'transactions' | 'portal_users') => Number((await h.c.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = { audit: await count('audit_log'), transactions: await count('transactions'), users: await count('portal_users') };
    for (const { method, path } of portal) {
      const url = path.replace(/:[A-Za-z]+/g, '1');
      const form = { _csrf: '', email: 'x@example.com', password: 'a long enough password', amount: '1,00', value: '1,00', expiration: '60', name: 'X', document: '11144477735' };
      const res = await h.app.inject({
        method: method as 'POST',
        url,
        payload: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...member.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    expect({ audit: await count('audit_log'), transactions: await count('transactions'), users: await count('portal_users') }).toEqual(before);
  });

  it('sign-out is a POST that ends the session server-side: the old cookie no longer opens a page', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'out@example.com');
    const stolen = member.jar.get('pix_portal_session')!;
    const out = await member.post('/portal/sign-out');
    expect(out.statusCode).toBe(303);
    const replay = await h.app.inject({ method: 'GET', url: '/portal', headers: { cookie: `pix_portal_session=${stolen}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/portal\/sign-in/);
    // A GET (a link, an image) cannot sign anyone out: no such page, and the session goes on.
    const other = await signedInMember(h, account.id, 'stays@example.com');
    expect((await other.get('/portal/sign-out')).statusCode).toBe(404);
    expect((await other.get('/portal')).statusCode).toBe(200);
  });

  it('a session unused for more than 12 hours has ended', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'idle@example.com');
    expect((await member.get('/portal')).statusCode).toBe(200);
    const user = await h.c.db.selectFrom('portal_users').select('id').where('email', '=', 'idle@example.com').executeTakeFirstOrThrow();
    await h.c.db.updateTable('portal_sessions').set({ last_seen_at: new Date(Date.now() - 12 * 3600_000 - 60_000) }).where('user_id', '=', user.id).execute();
    expect((await member.get('/portal')).statusCode).toBe(303);
  });

  it('an unknown email and a wrong password get the same answer', async () => {
    const account = await h.createAccount();
    await signedInMember(h, account.id, 'same@example.com');
    const a = portalClient(h, { address: '10.0.0.1' });
    await a.get('/portal/sign-in');
    const wrong = await a.post('/portal/sign-in', { email: 'same@example.com', password: 'wrong password!!' });
    const b = portalClient(h, { address: '10.0.0.2' });
    await b.get('/portal/sign-in');
    const unknown = await b.post('/portal/sign-in', { email: 'nobody@example.com', password: 'wrong password!!' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const alert = (body: string) => /role="alert">([^<]*)</.exec(body)?.[1];
    expect(alert(wrong.body)).toBe('Email or password is incorrect.');
    expect(alert(unknown.body)).toBe(alert(wrong.body));
  });

  // Failure limits (decisions 7): the key is the e-mail at its address; a right password elsewhere is never refused.
  it('10 wrong passwords for an e-mail from address A: A gets 429 with Retry-After, the right password there too; the member signs in from address B', async () => {
    const account = await h.createAccount();
    await signedInMember(h, account.id, 'victim@example.com');
    const attacker = portalClient(h, { address: '10.9.0.1' });
    await attacker.get('/portal/sign-in');
    for (let i = 0; i < 10; i++) {
      expect((await attacker.post('/portal/sign-in', { email: 'victim@example.com', password: `guess number ${i}` })).statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const refused = await attacker.post('/portal/sign-in', { email: 'victim@example.com', password: 'a long enough password' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(refused.body).toContain('Too many failed attempts');
    const owner = portalClient(h, { address: '10.9.1.1' });
    await owner.signIn('victim@example.com', 'a long enough password');
    expect((await owner.get('/portal')).statusCode).toBe(200);
  });

  // Issue 30 item 6 (decisions 6: per address too): test/portal/sign-in-address-limit.test.ts has the rest.
  it('failures for many e-mails from one address spend that address\'s budget (10): then 429 there; the operator signs in from elsewhere', async () => {
    await signedInOperator(h, { address: '10.8.9.9' });
    const attacker = portalClient(h, { address: '10.8.0.1' });
    await attacker.get('/portal/sign-in');
    for (let i = 0; i < 10; i++) {
      expect((await attacker.post('/portal/sign-in', { email: `spray${i}@example.com`, password: 'password123456' })).statusCode).toBe(401);
    }
    expect((await attacker.post('/portal/sign-in', { email: 'spray10@example.com', password: 'password123456' })).statusCode).toBe(429);
    expect((await attacker.post('/portal/sign-in', { email: OPERATOR.email, password: OPERATOR.password })).statusCode).toBe(429);
    const elsewhere = portalClient(h, { address: '10.8.0.2' });
    await elsewhere.get('/portal/sign-in');
    expect((await elsewhere.post('/portal/sign-in', { email: OPERATOR.email, password: OPERATOR.password })).statusCode).toBe(303);
  });

  it('25 wrong passwords at once for one e-mail from one address: exactly 10 checked (401), 15 refused (429)', async () => {
    const account = await h.createAccount();
    await signedInMember(h, account.id, 'burst@example.com');
    const attacker = portalClient(h, { address: '10.7.0.1' });
    await attacker.get('/portal/sign-in');
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => attacker.post('/portal/sign-in', { email: 'burst@example.com', password: `wrong guess ${i}` })));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
    for (const refused of answers.filter((a) => a.statusCode === 429)) expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const counted = await h.c.db.selectFrom('auth_failures').select('failed_at').where('key', '=', failureKeys.signIn('burst@example.com', '10.7.0.1').key).executeTakeFirstOrThrow();
    expect(counted.failed_at).toHaveLength(10);
  });
});

describe('isolation', () => {
  it("a member gets 404 for another account's transaction and for the admin panel", async () => {
    const mine = await h.createAccount({ funds: 10 });
    const theirs = await h.createAccount({ funds: 20 });
    const member = await signedInMember(h, mine.id, 'iso@example.com');
    const foreign = await h.c.db.selectFrom('transactions').select(['id', 'transaction_id']).where('account_id', '=', theirs.id).executeTakeFirstOrThrow();
    const own = await h.c.db.selectFrom('transactions').select(['transaction_id']).where('account_id', '=', mine.id).executeTakeFirstOrThrow();
    expect((await member.get(`/portal/transactions/${own.transaction_id}`)).statusCode).toBe(200);
    expect((await member.get(`/portal/transactions/${foreign.transaction_id}`)).statusCode).toBe(404);
    expect((await member.get(`/portal/transactions/${foreign.id}`)).statusCode).toBe(404);
    expect((await member.get(`/portal/admin/accounts/${theirs.id}`)).statusCode).toBe(404);
    expect((await member.get('/portal/admin/accounts')).statusCode).toBe(404);
  });

  it("a member reaches none of another account's charges, deliveries or sandbox actions (404), and no admin page", async () => {
    const mine = await h.createAccount({ funds: 10 });
    const theirs = await h.createAccount({ funds: 50 });
    const member = await signedInMember(h, mine.id, 'iso2@example.com');
    const other = await signedInMember(h, theirs.id, 'iso3@example.com');
    const charge = await other.post('/portal/charges', { value: '7,00', description: 'deles', expiration: '60' });
    const chargeId = String(charge.headers.location).split('/').pop()!;
    const theirTx = await h.c.db.selectFrom('transactions').select(['transaction_id', 'end_to_end_id']).where('account_id', '=', theirs.id).where('kind', '=', 'PAYMENT').where('status', '=', 'CONFIRMED').executeTakeFirstOrThrow();
    await h.admin('POST', `/admin/accounts/${theirs.id}/webhooks`, { eventType: 'cash_in', url: 'https://theirs.example.com/hook' });

    expect((await member.get(`/portal/charges/${chargeId}`)).statusCode).toBe(404);
    expect((await member.get(`/portal/charges/${chargeId}/status`)).statusCode).toBe(404);
    expect((await member.post(`/portal/webhooks/resend-transaction/${theirTx.transaction_id}`)).statusCode).toBe(404);
    expect((await member.post('/portal/sandbox/pay', { charge: chargeId })).statusCode).toBe(404);
    expect((await member.post('/portal/sandbox/med', { endToEndId: theirTx.end_to_end_id! })).statusCode).toBeGreaterThanOrEqual(400);
    // Nothing happened to the other account: its charge still waits, no MED was opened.
    expect((await other.get(`/portal/charges/${chargeId}/status`)).body).toContain('Pending');
    expect(await h.c.db.selectFrom('meds').select('id').where('account_id', '=', theirs.id).execute()).toHaveLength(0);
    for (const path of ['/portal/admin/audit', '/portal/admin/system', `/portal/admin/accounts/${mine.id}`]) {
      expect((await member.get(path)).statusCode, path).toBe(404);
    }
    expect((await member.post(`/portal/admin/accounts/${theirs.id}/limits`, { daily: '1,00' })).statusCode).toBe(404);
    expect((await member.post('/portal/admin/operators', { email: 'sneaky@example.com', password: 'a long enough password' })).statusCode).toBe(404);
    expect(await h.c.db.selectFrom('portal_users').select('id').where('email', '=', 'sneaky@example.com').execute()).toHaveLength(0);
  });

  it('an operator is sent to the admin panel and is not a member of any account', async () => {
    const operator = await signedInOperator(h);
    const home = await operator.get('/portal');
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/portal/admin/accounts');
    expect((await operator.get('/portal/transactions')).statusCode).toBe(404);
  });
});

/** The full paths of fastify's printRoutes({ commonPrefix: false }) tree ("├── /a (POST)", "│   └── /:id/b (POST)"). */
function routePaths(tree: string): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    paths.push(stack.join(''));
  }
  return paths;
}
