import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { OPERATOR, portalClient, signedInMember, signedInOperator } from './portal-client.ts';

/**
 * Issue 30 item 2: TOTP two-factor sign-in (RFC 6238), turned on by the person, recovery codes
 * shown once and used once, a throttled and audited second step, and PORTAL_REQUIRE_2FA.
 */
const PASSWORD = 'a long enough password';
/** The code an authenticator app shows now (computed here as the app does, not by the service's code). */
const codeNow = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1] ?? '';
const secretOf = (html: string) => /id="setup-key">([A-Z2-7 ]+)</.exec(html)![1]!.replaceAll(' ', '');
const recoveryCodesOf = (html: string) => [...html.slice(html.indexOf('id="recovery-code-list"')).matchAll(/<li>([0-9a-z-]+)<\/li>/g)].map((m) => m[1]!);

/** Turns two-factor sign-in on for a signed-in client: answers the secret and the recovery codes. */
async function enrol(client: ReturnType<typeof portalClient>) {
  await client.get('/portal/security');
  const begun = await client.post('/portal/security/two-factor/begin');
  expect(begun.statusCode, begun.body.slice(0, 300)).toBe(200);
  const secret = secretOf(begun.body);
  const done = await client.post('/portal/security/two-factor/confirm', { code: codeNow(secret) });
  expect(done.statusCode, alertOf(done.body)).toBe(200);
  return { secret, codes: recoveryCodesOf(done.body) };
}

/** Password, then the second step's page (the session opens only after the code). */
async function passwordStep(h: Harness, email: string, password = PASSWORD) {
  const client = portalClient(h);
  await client.get('/portal/sign-in');
  const res = await client.post('/portal/sign-in', { email, password });
  expect(res.statusCode).toBe(303);
  return { client, res };
}

describe('two-factor sign-in, turned on by the person (PORTAL_REQUIRE_2FA=off)', () => {
  let h: Harness;
  let accountId: number;
  const email = 'ana@padaria.example';
  let secret: string;
  let codes: string[];
  let enrolCode: string;

  beforeAll(async () => {
    h = await startHarness();
    accountId = (await h.createAccount({ name: 'Padaria Central' })).id;
  });
  afterAll(() => h.close());

  it('enrolment: the QR code and key, a wrong code refused, the right one turns it on and shows 10 recovery codes once', async () => {
    const member = await signedInMember(h, accountId, email);
    const page = await member.get('/portal/security');
    expect(page.body).toContain('Two-factor sign-in is off');
    const begun = await member.post('/portal/security/two-factor/begin');
    expect(begun.body).toMatch(/<img class="qr" src="data:image\/png;base64,/);
    secret = secretOf(begun.body);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await member.post('/portal/security/two-factor/confirm', { code: codeNow(secret, 5) }, { 'accept-language': 'pt-BR' });
    expect(wrong.statusCode).toBe(400);
    expect(alertOf(wrong.body)).toBe('Código de verificação: o código não confere ou já foi usado. Use o código atual.');
    enrolCode = codeNow(secret);
    const done = await member.post('/portal/security/two-factor/confirm', { code: enrolCode });
    expect(done.statusCode).toBe(200);
    codes = recoveryCodesOf(done.body);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Never shown again, and not stored as shown.
    const after = await member.get('/portal/security');
    expect(after.body).toContain('Two-factor sign-in is on. Recovery codes left: 10.');
    expect(after.body).not.toContain(secret);
    expect((await member.post('/portal/security/two-factor/begin')).statusCode).toBe(303);
    const stored = await h.c.db.selectFrom('portal_two_factor').selectAll().executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(secret);
    const hashes = await h.c.db.selectFrom('portal_recovery_codes').select('code_hash').execute();
    for (const code of codes) expect(hashes.map((r) => r.code_hash).join()).not.toContain(code.replace('-', ''));
    expect(await h.c.db.selectFrom('audit_log').select('action').where('action', '=', 'two-factor.enable').execute()).toHaveLength(1);
  });

  it('sign-in: the password alone opens no session; a wrong code is refused and audited; the app\'s code signs in, once', async () => {
    const { client, res } = await passwordStep(h, email);
    expect(res.headers.location).toBe('/portal/sign-in/second-step');
    expect((await client.get('/portal')).statusCode).toBe(303);
    const step = await client.get('/portal/sign-in/second-step');
    expect(step.body).toContain('autocomplete="one-time-code"');
    const wrong = await client.post('/portal/sign-in/second-step', { code: codeNow(secret, 4) });
    expect(wrong.statusCode).toBe(401);
    expect(alertOf(wrong.body)).toBe('Authentication code: the code is not right, or was already used. Try the current one.');
    // The current step's code proved the enrolment: a code works once, so the app's next one signs in.
    expect((await client.post('/portal/sign-in/second-step', { code: enrolCode })).statusCode).toBe(401);
    const code = codeNow(secret, 1);
    const right = await client.post('/portal/sign-in/second-step', { code });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/portal');
    expect((await client.get('/portal')).statusCode).toBe(200);
    const audited = await h.c.db.selectFrom('audit_log').select(['after']).where('action', '=', 'sign-in.second-step').orderBy('id').execute();
    expect(audited.map((r) => (r.after as { outcome: string }).outcome)).toEqual(['wrong', 'wrong', 'right']);
    // The same code does not open a second sign-in.
    const again = await passwordStep(h, email);
    expect((await again.client.post('/portal/sign-in/second-step', { code })).statusCode).toBe(401);
  });

  it('a recovery code signs in once; the count of those left goes down', async () => {
    const first = await passwordStep(h, email);
    const used = await first.client.post('/portal/sign-in/second-step', { code: codes[0]!.toUpperCase() });
    expect(used.statusCode).toBe(303);
    expect((await first.client.get('/portal/security')).body).toContain('Recovery codes left: 9.');
    const second = await passwordStep(h, email);
    expect((await second.client.post('/portal/sign-in/second-step', { code: codes[0]! })).statusCode).toBe(401);
    expect((await second.client.post('/portal/sign-in/second-step', { code: codes[1]! })).statusCode).toBe(303);
  });

  it('the second step is throttled per person: after 10 wrong codes even the right one waits (429, Retry-After)', async () => {
    const { client } = await passwordStep(h, email);
    // Five wrong codes were counted above (enrolment 1, sign-in 2, a reused code 1, a reused recovery code 1).
    for (let i = 0; i < 5; i++) expect((await client.post('/portal/sign-in/second-step', { code: '000000' })).statusCode).toBe(401);
    const limited = await client.post('/portal/sign-in/second-step', { code: codeNow(secret, 1) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(alertOf(limited.body)).toMatch(/^Too many failed attempts/);
    // Another address does not escape it: the limit is the person's.
    const elsewhere = portalClient(h, { address: '198.51.100.7' });
    await elsewhere.get('/portal/sign-in');
    await elsewhere.post('/portal/sign-in', { email, password: PASSWORD });
    expect((await elsewhere.post('/portal/sign-in/second-step', { code: codeNow(secret, 1) })).statusCode).toBe(429);
  });

  it('without a live challenge the second step sends back to the password', async () => {
    const client = portalClient(h);
    await client.get('/portal/sign-in');
    const res = await client.post('/portal/sign-in/second-step', { code: '123456' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/portal/sign-in');
  });
});

describe('turning it off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('needs a current code; then the password alone signs in again', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'bia@example.com');
    const { secret } = await enrol(member);
    expect((await member.post('/portal/security/two-factor/disable', { code: '000000' })).statusCode).toBe(400);
    const off = await member.post('/portal/security/two-factor/disable', { code: codeNow(secret, 1) });
    expect(off.statusCode).toBe(303);
    const { res } = await passwordStep(h, 'bia@example.com');
    expect(res.headers.location).toBe('/portal');
  });
});

describe('PORTAL_REQUIRE_2FA', () => {
  it('operators: an operator without it is led to turn it on before anything else; members are not; it cannot be turned off', async () => {
    const h = await startHarness({ env: { PORTAL_REQUIRE_2FA: 'operators' } });
    try {
      const operator = await signedInOperator(h);
      const admin = await operator.get('/portal/admin/accounts');
      expect(admin.statusCode).toBe(303);
      expect(admin.headers.location).toBe('/portal/security');
      expect((await operator.get('/portal/security')).body).toContain('Your organisation requires two-factor sign-in');
      const { secret } = await enrol(operator);
      expect((await operator.get('/portal/admin/accounts')).statusCode).toBe(200);
      expect((await operator.post('/portal/security/two-factor/disable', { code: codeNow(secret, 1) })).statusCode).toBe(403);
      // Its next sign-in asks for the code.
      const { res } = await passwordStep(h, OPERATOR.email, OPERATOR.password);
      expect(res.headers.location).toBe('/portal/sign-in/second-step');
      const account = await h.createAccount();
      const member = await signedInMember(h, account.id, 'caixa@example.com');
      expect((await member.get('/portal/transactions')).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('all: members too', async () => {
    const h = await startHarness({ env: { PORTAL_REQUIRE_2FA: 'all' } });
    try {
      const account = await h.createAccount();
      const member = await signedInMember(h, account.id, 'caixa@example.com');
      const page = await member.get('/portal/transactions');
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/portal/security');
      await enrol(member);
      expect((await member.get('/portal/transactions')).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('refuses an unknown value at start', async () => {
    await expect(startHarness({ env: { PORTAL_REQUIRE_2FA: 'everyone' } })).rejects.toThrow(/PORTAL_REQUIRE_2FA/);
  });
});
