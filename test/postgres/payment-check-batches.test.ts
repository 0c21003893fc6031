import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import type { PaymentOrder, PaymentStatus, PixNetwork, SubmitAnswer } from '../../src/network/pix-network.ts';
import type { PayoutRequest } from '../../src/services/payouts/outgoing-payout.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';

/**
 * Issue 23 item 3: the payouts one admission batch admits are submitted by ONE `payment.submits` job,
 * and the payouts submitted together are checked by ONE `payment.checks` job, instead of one
 * `payment.submit` and one `payment.check` job each. What a job per payment guaranteed must hold for each payment of the
 * shared job, on real PostgreSQL: a duplicate job, a worker dying while its status query is out
 * (another instance takes over once the lease lapses, the late one records nothing), a status query
 * answering "unknown", the network forgetting some of them, and the recording of one payment failing
 * (the others finish; that one goes on as a job of its own). Each payment ends finished once, paid
 * once at the network, one event, no step left, the ledger green.
 */

interface Faults {
  /** The next submission reaches the network, but its answer is lost (timeout after the network committed). */
  lostSubmitAnswer?: boolean;
  /** The next submission reaches the network, then the worker hangs until released (a dying process). */
  hangAfterSubmit?: { arrived: () => void; release: Promise<void> };
  /** The next status query answers "unknown" for every payment (the network briefly away). */
  unknownStatus?: boolean;
  /** The next status query is answered, then the worker hangs until released (a dying process). */
  hangAfterStatus?: { arrived: () => void; release: Promise<void> };
}

function faultNetwork(faults: Faults) {
  return (real: PixNetwork): PixNetwork => ({
    ...real,
    subscribe: (sink) => real.subscribe(sink),
    lookupKey: (key, hint) => real.lookupKey(key, hint),
    registerCharge: (order) => real.registerCharge(order),
    async submitPayments(orders: PaymentOrder[]): Promise<SubmitAnswer[]> {
      const answers = await real.submitPayments(orders);
      if (faults.lostSubmitAnswer) {
        faults.lostSubmitAnswer = false;
        throw new Error('socket hang up (after the network committed)');
      }
      const hang = faults.hangAfterSubmit;
      if (hang) {
        faults.hangAfterSubmit = undefined;
        hang.arrived();
        await hang.release;
      }
      return answers;
    },
    async paymentStatuses(orders: PaymentOrder[]): Promise<PaymentStatus[]> {
      if (faults.unknownStatus) {
        faults.unknownStatus = false;
        return orders.map(() => ({ status: 'unknown', reason: '503 from the network', retryAt: new Date(0) }));
      }
      const answers = await real.paymentStatuses(orders);
      const hang = faults.hangAfterStatus;
      if (hang) {
        faults.hangAfterStatus = undefined;
        hang.arrived();
        await hang.release;
      }
      return answers;
    },
  });
}

const faults: Faults = {};
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ wrapNetwork: faultNetwork(faults) });
});
afterAll(() => h.close());
beforeEach(() => {
  for (const key of Object.keys(faults)) delete faults[key as keyof Faults];
});

const COUNT = 5;

let seq = 0;
/** A network cash-out as the route builds it (test/postgres/payouts-batching.test.ts); created in one tick, these land in ONE batch. */
function request(accountId: number): PayoutRequest {
  return {
    accountId,
    origin: 'cash_out',
    family: 'api',
    externalId: `shared-${Date.now()}-${++seq}`,
    amount: 1_000 as Cents,
    description: null,
    pixKey: 'destino@example.com',
    counterpart: { name: 'Fulano', document: cpf(77), bank: { bankISPB: '00000000', bankName: 'Banco', bankCode: '001', accountBranch: '0001', accountNumber: '1-0' } },
    scenario: null,
    destination: { kind: 'network', target: { payee: { by: 'key', key: { type: 'EMAIL', normalized: 'destino@example.com' }, document: cpf(77), holderDocument: null, ispb: null } } },
    codes: { duplicate: 'PIX_DUPLICATE_EXTERNAL_ID', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
  };
}

/** COUNT payouts of one account admitted in ONE batch, not submitted yet: they share one submit job. */
async function admittedTogether() {
  const account = await payer(h, 500);
  const create = h.c.payouts.payouts.create;
  const created = (await Promise.all(Array.from({ length: COUNT }, () => create(request(account.id))))) as Array<{ id: number; transaction_id: string }>;
  const rows = [...created].sort((a, b) => a.id - b.id);
  return { accountId: account.id, ids: rows.map((r) => r.id), references: rows.map((r) => r.transaction_id) };
}

/** COUNT payouts of one account ordered at one instant and submitted together: their checks share one job. */
async function submittedTogether() {
  const account = await payer(h, 500);
  const uuids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const res = await h.api('POST', '/api/pix/cash-out', account.token, cashOutBody({ value: 10 }));
    expect(res.statusCode, res.body).toBe(201);
    uuids.push(res.json().transactionId);
  }
  await h.c.scheduler.runDue(); // the submit steps: every payment accepted, each to be checked at the same instant
  const rows = await h.c.db.selectFrom('transactions').select(['id', 'transaction_id']).where('transaction_id', 'in', uuids).orderBy('id').execute();
  return { accountId: account.id, ids: rows.map((r) => r.id), references: rows.map((r) => r.transaction_id) };
}

type Payments = Awaited<ReturnType<typeof submittedTogether>>;

/** The step jobs of these payments: the shared check jobs, and the ones a single payment has. */
async function stepJobsOf(p: Payments) {
  const rows = await sql<{ id: number; kind: string; ids: number[] }>`
    SELECT id, kind, CASE WHEN kind IN ('payment.checks', 'payment.submits') THEN ARRAY(SELECT (x->>'id')::bigint FROM jsonb_array_elements(payload->'payments') x)
                          ELSE ARRAY[(payload->>'id')::bigint] END AS ids
      FROM jobs WHERE kind LIKE 'payment.%' ORDER BY id`.execute(h.c.db);
  return rows.rows.map((r) => ({ ...r, ids: r.ids.map(Number) })).filter((r) => r.ids.some((id) => p.ids.includes(id)));
}

async function pendingOf(p: Payments) {
  // In id order: p.ids is, and a heap scan's order is not (an updated row moves).
  return (await h.c.db.selectFrom('transactions').select('id').where('id', 'in', p.ids).where('status', '=', 'PENDING').orderBy('id').execute()).map((r) => r.id);
}

/** Runs the due work, moving the clock, until every payment is finished. */
async function settle(p: Payments) {
  for (let i = 0; i < 20 && (await pendingOf(p)).length > 0; i++) {
    h.clock.advance(3);
    await h.c.scheduler.runDue();
  }
  expect(await pendingOf(p)).toEqual([]);
  await h.c.scheduler.runDue(); // the follow-up jobs of a finished payment find nothing left to do
}

/** Each payment exactly once: CONFIRMED, paid once at the network, one event, one settlement; no step left; books green. */
async function expectEachOnce(p: Payments) {
  const rows = await h.c.db.selectFrom('transactions').select(['id', 'status']).where('account_id', '=', p.accountId).where('kind', '=', 'WITHDRAW').orderBy('id').execute();
  expect(rows).toEqual(p.ids.map((id) => ({ id, status: 'CONFIRMED' })));
  const atNetwork = await sql<{ reference: string; n: number }>`
    SELECT reference, count(*)::int AS n FROM sandbox_network_payments WHERE reference = ANY (${p.references}::text[]) GROUP BY reference ORDER BY reference`.execute(h.c.db);
  expect(atNetwork.rows).toEqual([...p.references].sort().map((reference) => ({ reference, n: 1 })));
  const events = await h.c.db.selectFrom('events').select(['transaction_id', 'type']).where('transaction_id', 'in', p.ids).orderBy('transaction_id').execute();
  expect(events).toEqual(p.ids.map((id) => ({ transaction_id: id, type: 'cash_out' })));
  const settles = await h.c.db.selectFrom('postings').select('transaction_id').where('transaction_id', 'in', p.ids).where('reason', '=', 'settle').where('account_id', '=', p.accountId).orderBy('transaction_id').execute();
  expect(settles.map((s) => s.transaction_id)).toEqual(p.ids);
  expect(await stepJobsOf(p)).toEqual([]);
  expect(await h.c.checkLedger()).toMatchObject({ ok: true });
  expect((await h.balance(p.accountId)).blocked).toBe(0);
}

describe('payouts submitted together are checked by one job, and each ends exactly once (PostgreSQL)', () => {
  it('one payment.checks job for the batch instead of one job each; all settle', async () => {
    const p = await submittedTogether();
    const jobs = await stepJobsOf(p);
    expect(jobs.map((j) => [j.kind, j.ids])).toEqual([['payment.checks', p.ids]]);
    await settle(p);
    await expectEachOnce(p);
  });

  it('a duplicate of the shared job: every payment is still finished once', async () => {
    const p = await submittedTogether();
    const [job] = await stepJobsOf(p);
    await sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at)
      SELECT kind, run_at, payload, max_attempts, created_at, updated_at FROM jobs WHERE id = ${job!.id}`.execute(h.c.db);
    expect((await stepJobsOf(p)).map((j) => j.kind)).toEqual(['payment.checks', 'payment.checks']);
    await settle(p);
    await expectEachOnce(p);
  });

  it('a worker dies while its status query is out: nobody else takes the job during its lease, then another does, and the late one records nothing', async () => {
    const p = await submittedTogether();
    h.clock.advance(3); // the check is due
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const dying = await h.instance(faultNetwork({ hangAfterStatus: { arrived: () => arrived(), release: new Promise<void>((resolve) => (release = resolve)) } }));
    const stuck = dying.scheduler.runDue();
    await asked;
    const [held] = await h.c.db.selectFrom('jobs').select(['lease_until']).where('kind', '=', 'payment.checks').execute();
    expect(held!.lease_until).not.toBeNull();
    await h.c.scheduler.runDue();
    expect(await pendingOf(p)).toEqual(p.ids);
    await sql`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(h.c.db);
    await settle(p);
    release();
    await stuck;
    await expectEachOnce(p);
  });

  it('the status query answers "unknown": all are asked again together later, then settle', async () => {
    const p = await submittedTogether();
    faults.unknownStatus = true;
    await settle(p);
    expect(faults.unknownStatus).toBe(false);
    await expectEachOnce(p);
  });

  it('the network forgot two of them: those two are submitted again, the others settle, each once', async () => {
    const p = await submittedTogether();
    await sql`DELETE FROM sandbox_network_payments WHERE reference = ANY (${p.references.slice(0, 2)}::text[])`.execute(h.c.db);
    await settle(p);
    await expectEachOnce(p);
  });

  it('recording one payment keeps failing: the others finish; that one goes on as a job of its own and ends once', async () => {
    const p = await submittedTogether();
    const poisoned = p.ids[2]!;
    await sql`CREATE OR REPLACE FUNCTION check_batch_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault recording one payment'; END $$`.execute(h.c.db);
    await sql`DROP TRIGGER IF EXISTS check_batch_fault ON transactions`.execute(h.c.db);
    await sql.raw(`CREATE TRIGGER check_batch_fault BEFORE UPDATE OF status ON transactions FOR EACH ROW
      WHEN (OLD.id = ${Number(poisoned)} AND OLD.status = 'PENDING') EXECUTE FUNCTION check_batch_fault()`).execute(h.c.db);
    try {
      h.clock.advance(3);
      await h.c.scheduler.runDue();
      expect(h.logLines.some((l) => l.includes('injected fault recording one payment'))).toBe(true);
      expect(await pendingOf(p)).toEqual([poisoned]);
      expect((await stepJobsOf(p)).map((j) => [j.kind, j.ids])).toEqual([['payment.check', [poisoned]]]);
    } finally {
      await sql`DROP TRIGGER IF EXISTS check_batch_fault ON transactions`.execute(h.c.db);
    }
    await settle(p);
    await expectEachOnce(p);
  });
});

describe('payouts admitted in one batch are submitted by one job, and each ends exactly once (PostgreSQL)', () => {
  it('one payment.submits job for the batch instead of one job each; then one check job; all settle', async () => {
    const p = await admittedTogether();
    expect((await stepJobsOf(p)).map((j) => [j.kind, j.ids])).toEqual([['payment.submits', p.ids]]);
    await h.c.scheduler.runDue();
    expect((await stepJobsOf(p)).map((j) => [j.kind, j.ids])).toEqual([['payment.checks', p.ids]]);
    await settle(p);
    await expectEachOnce(p);
  });

  it('a duplicate of the shared submit job: paid once each at the network, finished once each', async () => {
    const p = await admittedTogether();
    const [job] = await stepJobsOf(p);
    await sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at)
      SELECT kind, run_at, payload, max_attempts, created_at, updated_at FROM jobs WHERE id = ${job!.id}`.execute(h.c.db);
    await settle(p);
    await expectEachOnce(p);
  });

  it('a worker dies after the network took the batch: nobody else submits during its lease, then another does, and the late one records nothing', async () => {
    const p = await admittedTogether();
    let arrived!: () => void;
    const inNetwork = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const dying = await h.instance(faultNetwork({ hangAfterSubmit: { arrived: () => arrived(), release: new Promise<void>((resolve) => (release = resolve)) } }));
    const stuck = dying.scheduler.runDue();
    try {
      await inNetwork;
      const [held] = await h.c.db.selectFrom('jobs').select(['lease_until']).where('kind', '=', 'payment.submits').execute();
      expect(held!.lease_until).not.toBeNull();
      await h.c.scheduler.runDue();
      expect(await pendingOf(p)).toEqual(p.ids);
      await sql`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(h.c.db);
      await settle(p);
    } finally {
      // Also when an expectation fails: a worker left hanging in the network holds the harness open.
      release();
      await stuck;
    }
    await expectEachOnce(p);
  });

  it('the answer to the batch\'s submission is lost after the network took it: each is checked, never paid twice', async () => {
    const p = await admittedTogether();
    faults.lostSubmitAnswer = true;
    await settle(p);
    expect(faults.lostSubmitAnswer).toBe(false);
    await expectEachOnce(p);
  });
});
