import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { portalClient, signedInMember, signedInOperator } from './portal-client.ts';

let h: Harness;
let operator: ReturnType<typeof portalClient>;
beforeAll(async () => {
  h = await startHarness();
  operator = await signedInOperator(h, { address: '10.20.30.40' });
});
afterAll(() => h.close());

describe('admin panel', () => {
  it('has the Accounts, Audit log and System links and a Sign out button', async () => {
    const page = await operator.get('/portal/admin/accounts');
    expect(page.statusCode).toBe(200);
    for (const link of ['Accounts', 'Audit log', 'System']) expect(page.body).toContain(`>${link}</a>`);
    expect(page.body).toContain('>Sign out</button>');
  });

  it('creates an account, finds it by name, edits limits and fees; each change is audited with before and after', async () => {
    const refused = await operator.post('/portal/admin/accounts', { name: 'Mercado Azul', document: '123' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/role="alert">document must be a valid CPF/);
    const created = await operator.post('/portal/admin/accounts', { name: 'Mercado Azul', document: cpf(777) });
    expect(created.statusCode).toBe(303);
    const id = Number(String(created.headers.location).split('/').pop());
    const search = await operator.get('/portal/admin/accounts?q=azul');
    expect(search.body).toContain(`href="/portal/admin/accounts/${id}"`);
    const bad = await operator.post(`/portal/admin/accounts/${id}/limits`, { perTransaction: '1,234', daily: '', nightly: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('perTransaction must be');
    const limits = await operator.post(`/portal/admin/accounts/${id}/limits`, { perTransaction: '2.500,00', daily: '10.000,00', nightly: '1.000,00' });
    expect(limits.statusCode).toBe(200);
    const api = (await h.admin('GET', `/admin/accounts/${id}`)).json();
    expect(api.limits).toMatchObject({ perTransaction: 2500, daily: 10000, nightly: 1000 });
    const fees = await operator.post(`/portal/admin/accounts/${id}/fees`, { cashInFixed: '0,50', cashInPercent: '1,5', cashOutFixed: '1,00', cashOutPercent: '0' });
    expect(fees.statusCode).toBe(200);
    const row = await h.c.db.selectFrom('accounts').select(['fee_cash_in_fixed', 'fee_cash_in_percent_bp']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ fee_cash_in_fixed: 50, fee_cash_in_percent_bp: 150 });

    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('account_id', '=', id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['account.create', 'account.limits', 'account.fees']);
    expect(audit.every((a) => a.actor_email === 'ops@example.com' && a.address === '10.20.30.40')).toBe(true);
    expect((audit[1]!.after as { limits: unknown }).limits).toEqual({ perTransaction: 250000, daily: 1000000, nightly: 100000 });
    expect((audit[1]!.before as { limits: { perTransaction: number } }).limits.perTransaction).not.toBe(250000);

    const page = await operator.get(`/portal/admin/audit?account=${id}`);
    expect(auditActions(page.body)).toEqual(['account.fees', 'account.limits', 'account.create']);
    expect(page.body).toContain('ops@example.com');
    // Before and after in reais and percent, only what changed.
    expect(page.body).toContain('<li>limits.perTransaction: R$ 5.000,00 → R$ 2.500,00</li>');
    expect(page.body).toContain('<li>fees.cashIn.percent: 0 % → 1,5 %</li>');
    expect(page.body).toContain('<li>fees.cashIn.fixed: R$ 0,00 → R$ 0,50</li>');
    expect(page.body).not.toContain('<li>fees.cashOut.percent: 0 % → 0 %</li>');
    const byActor = await operator.get(`/portal/admin/audit?actor=${encodeURIComponent('OPS@example.com')}&account=${id}`);
    expect(auditActions(byActor.body)).toEqual(['account.fees', 'account.limits', 'account.create']);
    const byOther = await operator.get(`/portal/admin/audit?actor=admin-api&account=${id}`);
    expect(auditActions(byOther.body)).toEqual([]);
    const filtered = await operator.get(`/portal/admin/audit?account=${id}&action=account.fees`);
    expect(auditActions(filtered.body)).toEqual(['account.fees']);
  });

  it('limit changes through the admin API are audited too, in the same transaction', async () => {
    const account = await h.createAccount();
    await h.admin('PATCH', `/admin/accounts/${account.id}/limits`, { daily: 1234.56 });
    const rows = await h.c.db.selectFrom('audit_log').selectAll().where('account_id', '=', account.id).where('action', '=', 'account.limits').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toBe('admin-api');
    expect((rows[0]!.after as { limits: { daily: number } }).limits.daily).toBe(123456);
    // A failing audit write rolls the change back: the two are one transaction.
    await sql`ALTER TABLE audit_log ADD CONSTRAINT no_limits_test CHECK (action <> 'account.limits') NOT VALID`.execute(h.c.db);
    const refused = await h.admin('PATCH', `/admin/accounts/${account.id}/limits`, { daily: 99 });
    expect(refused.statusCode).toBe(500);
    expect((await h.admin('GET', `/admin/accounts/${account.id}`)).json().limits.daily).toBe(1234.56);
    await sql`ALTER TABLE audit_log DROP CONSTRAINT no_limits_test`.execute(h.c.db);
  });

  it("the split frequency set through the admin API is audited with before and after", async () => {
    const account = await h.createAccount();
    const res = await h.admin('PATCH', `/admin/accounts/${account.id}/split-frequency`, { frequency: 'HOURLY' });
    expect(res.statusCode).toBe(200);
    const rows = await h.c.db.selectFrom('audit_log').selectAll().where('account_id', '=', account.id).where('action', '=', 'account.split-frequency').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toBe('admin-api');
    expect((rows[0]!.before as { splitFrequency: string }).splitFrequency).toBe('DAILY');
    expect((rows[0]!.after as { splitFrequency: string }).splitFrequency).toBe('HOURLY');
  });

  it('invites a member from the panel (link shown once), removes them, and their session ends', async () => {
    const account = await h.createAccount();
    const invited = await operator.post(`/portal/admin/accounts/${account.id}/members`, { email: 'clerk@example.com' });
    expect(invited.statusCode).toBe(201);
    expect(invited.body).toMatch(/id="invitation-url" class="mono" readonly="" value="http:\/\/[^"]+\/portal\/invitations\//);
    const other = await h.createAccount();
    const member = await signedInMember(h, other.id, 'gone@example.com');
    const page = await operator.get(`/portal/admin/accounts/${other.id}`);
    const memberId = /action="\/portal\/admin\/accounts\/\d+\/members\/(\d+)\/remove"/.exec(page.body)![1]!;
    expect((await operator.post(`/portal/admin/accounts/${other.id}/members/${memberId}/remove`)).statusCode).toBe(303);
    expect((await member.get('/portal')).statusCode).toBe(303);
  });

  it('operators manage an account\'s credentials and webhooks from its page', async () => {
    const account = await h.createAccount();
    const created = await operator.post(`/portal/admin/accounts/${account.id}/credentials`);
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatch(/id="client-secret"/);
    const hook = await operator.post(`/portal/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_out', url: 'https://ops.example.com/hook', headers: '' });
    expect(hook.statusCode).toBe(303);
    expect((await h.admin('GET', `/admin/accounts/${account.id}/webhooks`)).json().metadata.total).toBe(1);
    const clientId = /id="client-id" class="mono" readonly="" value="([^"]+)"/.exec(created.body)![1]!;

    const made = await operator.post(`/portal/admin/accounts/${account.id}/certificates/make`);
    expect(made.statusCode).toBe(201);
    expect(made.body).toContain('download="client-key.pem"');
    const page = await operator.get(`/portal/admin/accounts/${account.id}`);
    expect(page.body).toContain('R$ 0,00');
    const fingerprint = /action="\/portal\/admin\/accounts\/\d+\/certificates\/([0-9a-f]{64})\/revoke"/.exec(page.body)![1]!;
    const webhookId = /action="\/portal\/admin\/accounts\/\d+\/webhooks\/(\d+)\/remove"/.exec(page.body)![1]!;
    expect((await operator.post(`/portal/admin/accounts/${account.id}/certificates/${fingerprint}/revoke`)).statusCode).toBe(303);
    expect((await operator.post(`/portal/admin/accounts/${account.id}/credentials/${clientId}/revoke`)).statusCode).toBe(303);
    expect((await operator.post(`/portal/admin/accounts/${account.id}/webhooks/${webhookId}/remove`)).statusCode).toBe(303);
    expect((await h.admin('GET', `/admin/accounts/${account.id}/webhooks`)).json().metadata.total).toBe(0);
    const after = await operator.get(`/portal/admin/accounts/${account.id}`);
    expect(after.body).not.toContain(`/certificates/${fingerprint}/revoke`);
    expect(after.body).not.toContain(`/credentials/${clientId}/revoke`);
    const audit = await h.c.db.selectFrom('audit_log').select('action').where('account_id', '=', account.id).where('actor_email', '=', 'ops@example.com').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['credential.create', 'webhook.register', 'certificate.make', 'certificate.revoke', 'credential.revoke', 'webhook.remove']);
    // An account that does not exist is a 404 in the panel too.
    expect((await operator.get('/portal/admin/accounts/999999')).statusCode).toBe(404);
  });

  it('system shows jobs waiting and failing and the webhook deliveries failing; an operator adds another operator', async () => {
    const rx = await startReceiver();
    try {
      rx.on('/broken', () => ({ status: 500, body: 'boom' }));
      const account = await h.createAccount();
      await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/broken') });
      await h.deposit(account.id, 3);
      await h.c.webhookRelay.runDue();
      expect(rx.to('/broken')).toHaveLength(1);
    } finally {
      await rx.close();
    }
    // A job that used up its attempts (the scheduler's own tests make one fail for real).
    const now = h.c.clock.now();
    await h.c.db.insertInto('jobs').values({ kind: 'charge.expire', run_at: now, payload: JSON.stringify({ chargeId: 0 }), attempts: 10, max_attempts: 10, status: 'failed', last_error: 'charge 0 vanished', created_at: now, updated_at: now }).execute();
    // And one waiting for next year.
    await h.c.db.insertInto('jobs').values({ kind: 'charge.expire', run_at: new Date(now.getTime() + 365 * 86_400_000), payload: JSON.stringify({ chargeId: 0 }), created_at: now, updated_at: now }).execute();
    const waiting = await h.c.db.selectFrom('jobs').select('id').where('status', '=', 'pending').execute();
    const page = await operator.get('/portal/admin/system');
    expect(page.statusCode).toBe(200);
    const stat = (label: string) => new RegExp(`${label}</div><div class="stat-value">(\\d+)<`).exec(page.body)?.[1];
    expect(stat('Jobs waiting')).toBe(String(waiting.length));
    expect(stat('Jobs failed')).toBe('1');
    expect(Number(stat('Deliveries failing'))).toBeGreaterThanOrEqual(1);
    expect(page.body).toContain('charge 0 vanished');
    expect(page.body).toMatch(/\/broken<\/td><td>500<\/td><td>1<\/td><td>\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}<\/td>/);
    const short = await operator.post('/portal/admin/operators', { email: 'second@example.com', password: 'too short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/role="alert">password must have at least 12 characters</);
    expect(short.body).toContain('value="second@example.com"');
    const taken = await operator.post('/portal/admin/operators', { email: 'OPS@example.com', password: 'another long password' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('already exists');
    const added = await operator.post('/portal/admin/operators', { email: 'second@example.com', password: 'another long password' });
    expect(added.statusCode).toBe(303);
    await portalClient(h).signIn('second@example.com', 'another long password');
    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'operator.create').where('actor_email', '=', 'ops@example.com').execute();
    expect(audit).toHaveLength(1);
  });
});

describe('audit of integration changes', () => {
  it('webhooks, credentials and certificates changed by a member or the admin API are recorded with who did it', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'integrator@example.com');
    await member.post('/portal/webhooks', { eventType: 'cash_in', url: 'https://audit.example.com/x', headers: 'X-Key: 1' });
    await member.post('/portal/credentials');
    await member.post('/portal/certificates/make');
    await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {});
    const hooks = (await h.admin('GET', `/admin/accounts/${account.id}/webhooks`)).json().data as Array<{ id: number }>;
    await h.admin('DELETE', `/admin/webhooks/${hooks[0]!.id}`);
    const rows = await h.c.db.selectFrom('audit_log').select(['action', 'actor', 'actor_email']).where('account_id', '=', account.id).orderBy('id').execute();
    expect(rows.map((r) => `${r.action} by ${r.actor_email ?? r.actor}`)).toEqual([
      'account.create by admin-api',
      'member.invite by admin-api',
      'member.accept-invitation by integrator@example.com',
      'webhook.register by integrator@example.com',
      'credential.create by integrator@example.com',
      'certificate.make by integrator@example.com',
      'credential.create by admin-api',
      'webhook.remove by admin-api',
    ]);
  });
});

describe('sandbox tools', () => {
  it('simulate an incoming PIX, pay a charge, open a MED, move the clock', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'tools@example.com');
    const deposit = await member.post('/portal/sandbox/deposit', { amount: '250,00' });
    expect(deposit.statusCode).toBe(200);
    expect(deposit.body).toContain('Received R$ 250,00.');
    expect((await h.balance(account.id)).available).toBeGreaterThan(0);

    const charge = await member.post('/portal/charges', { value: '12,34', description: 'teste', expiration: '10' });
    const chargeId = String(charge.headers.location).split('/').pop()!;
    const tools = await member.get('/portal/sandbox');
    expect(tools.body).toContain(`value="${chargeId}"`);
    const paid = await member.post('/portal/sandbox/pay', { charge: chargeId });
    expect(paid.body).toContain('Charge paid: R$ 12,34.');
    expect((await member.get(`/portal/charges/${chargeId}/status`)).body).toContain('Confirmed');

    const e2e = /name="endToEndId"><option value="(E[^"]+)"/.exec((await member.get('/portal/sandbox')).body)![1]!;
    const med = await member.post('/portal/sandbox/med', { endToEndId: e2e });
    expect(med.statusCode).toBe(200);
    expect((await member.get('/portal/med')).body).toContain('>Open</span>');
    expect((await member.get('/portal/med', { 'accept-language': 'pt-BR,pt;q=0.9' })).body).toContain('>Aberta</span>');

    // Moving the clock makes what fell due happen: a 10-minute charge no one paid expires.
    const unpaid = await member.post('/portal/charges', { value: '5,00', description: 'expira', expiration: '10' });
    const unpaidId = String(unpaid.headers.location).split('/').pop()!;
    const before = h.c.clock.now().getTime();
    const moved = await member.post('/portal/sandbox/clock', { minutes: '90' });
    expect(moved.statusCode).toBe(200);
    expect(moved.body).toContain('Clock moved 90 min forward.');
    expect(h.c.clock.now().getTime() - before).toBe(90 * 60_000);
    expect((await member.get(`/portal/charges/${unpaidId}/status`)).body).not.toContain('Pending');
    const badMinutes = await member.post('/portal/sandbox/clock', { minutes: 'soon' });
    expect(badMinutes.statusCode).toBe(400);
    expect(badMinutes.body).toContain('minutes must be');
    // Each tool used (and each charge made) is in the audit log with who used it; the refused one is not.
    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('account_id', '=', account.id).where('actor', 'like', 'member:%').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['member.accept-invitation', 'sandbox.pix_in', 'charge.create', 'sandbox.charge_paid', 'sandbox.med_opened', 'charge.create', 'sandbox.clock']);
    expect(audit.every((a) => a.actor_email === 'tools@example.com')).toBe(true);
  });
});

/** The actions listed on an audit log page, newest first. */
function auditActions(html: string): string[] {
  return [...html.matchAll(/<td class="mono action">(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ''));
}
