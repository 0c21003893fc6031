import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { signedInMember } from './portal-client.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const FROZEN = '2027-01-04T15:00:00.000Z';

describe("the Sandbox page: the account's own test clock (issue 29 item 3)", () => {
  it("shows, starts, advances and deletes the account's clock; only that account's MED analysis falls overdue", async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const memberA = await signedInMember(h, a.id, 'clock-a@example.com');
    const memberB = await signedInMember(h, b.id, 'clock-b@example.com');

    const before = await memberA.get('/portal/sandbox');
    expect(before.body).toContain('Test clock of this account');
    expect(before.body).toContain('Put this account on a test clock');
    expect((await memberA.get('/portal/sandbox', { 'accept-language': 'pt-BR,pt;q=0.9' })).body).toContain('Relógio de teste desta conta');

    const bad = await memberA.post('/portal/sandbox/test-clock', { frozenTime: 'next week' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('frozenTime must be');
    const started = await memberA.post('/portal/sandbox/test-clock', { frozenTime: FROZEN });
    expect(started.statusCode).toBe(200);
    expect(started.body).toContain('This account is on a test clock now.');
    const clock = (await h.admin('GET', '/sandbox/test-clocks?pageSize=100')).json().data.find((c: { accountIds: number[] }) => c.accountIds.includes(a.id));
    expect(clock).toMatchObject({ frozenTime: FROZEN, status: 'ready' });
    expect(started.body).toContain(`data-test-clock="${clock.id}"`);
    expect(started.body).toContain('Test clock time: 04/01/2027');

    // A received PIX and a MED against it, for each account (through the Sandbox page).
    for (const member of [memberA, memberB]) {
      expect((await member.post('/portal/sandbox/deposit', { amount: '100,00' })).statusCode).toBe(200);
      const e2e = /name="endToEndId"><option value="(E[^"]+)"/.exec((await member.get('/portal/sandbox')).body)![1]!;
      expect((await member.post('/portal/sandbox/med', { endToEndId: e2e })).statusCode).toBe(200);
    }
    const medOfA = await h.c.db.selectFrom('meds').select('created_at').where('account_id', '=', a.id).executeTakeFirstOrThrow();
    expect(medOfA.created_at.toISOString()).toBe(FROZEN);
    expect((await memberA.get('/portal/med')).body).not.toContain('>overdue</span>');

    // Eight days on a's clock: its MED's 7-day analysis is overdue; b's (on the service clock) is not.
    const advanced = await memberA.post('/portal/sandbox/test-clock/advance', { minutes: String(8 * 24 * 60) });
    expect(advanced.statusCode).toBe(200);
    expect(advanced.body).toContain('Test clock advanced 11520 min; what fell due has happened.');
    expect(advanced.body).toContain('Test clock time: 12/01/2027');
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).json()).toMatchObject({ frozenTime: '2027-01-12T15:00:00.000Z', status: 'ready' });
    expect((await memberA.get('/portal/med')).body).toContain('>overdue</span>');
    expect((await memberA.get('/portal/med', { 'accept-language': 'pt-BR,pt;q=0.9' })).body).toContain('>vencido</span>');
    expect((await memberB.get('/portal/med')).body).not.toContain('>overdue</span>');
    expect((await memberA.post('/portal/sandbox/test-clock/advance', { minutes: 'soon' })).statusCode).toBe(400);

    const deleted = await memberA.post('/portal/sandbox/test-clock/delete');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toContain('This account runs on the sandbox time again.');
    expect(deleted.body).toContain('Put this account on a test clock');
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).statusCode).toBe(404);

    const audit = await h.c.db.selectFrom('audit_log').select('action').where('account_id', '=', a.id).where('action', 'like', 'sandbox.test_clock%').orderBy('id').execute();
    expect(audit.map((r) => r.action)).toEqual(['sandbox.test_clock_create', 'sandbox.test_clock_advance', 'sandbox.test_clock_delete']);
  });
});
