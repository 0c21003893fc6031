import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentOrder, PaymentStatus, PixNetwork, SubmitAnswer } from '../../src/network/pix-network.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';

/**
 * Issue 11: a payment killed at each step boundary ends exactly once. For a payout, a refund and a
 * split payout, on real PostgreSQL: the record transaction failing before commit, a worker dying
 * after the network took the payment (another instance takes over once the lease lapses, the first
 * comes back late), a duplicate job, and a network that answers "unknown" before the real outcome.
 * Each ends with the transaction finished once, the network paid once, one event, the ledger green.
 */

/** What the fault network should do next; each fault fires once. */
interface Faults {
  /** Submit reaches the network, but the answer is lost (timeout after the network committed). */
  lostSubmitAnswer?: boolean;
  /** Submit never reaches the network (connection refused): "unknown", and the network has nothing. */
  submitNeverArrives?: boolean;
  /** The next status query answers "unknown" (the network is briefly away). */
  unknownStatus?: boolean;
  /** The next submission reaches the network, then the worker hangs until released (a dying process). */
  hangAfterSubmit?: { arrived: () => void; release: Promise<void> };
}

function faultNetwork(faults: Faults) {
  return (real: PixNetwork): PixNetwork => ({
    ...real,
    subscribe: (sink) => real.subscribe(sink),
    lookupKey: (key, hint) => real.lookupKey(key, hint),
    registerCharge: (order) => real.registerCharge(order),
    async submitPayments(orders: PaymentOrder[]): Promise<SubmitAnswer[]> {
      if (faults.submitNeverArrives) {
        faults.submitNeverArrives = false;
        return orders.map(() => ({ status: 'unknown', reason: 'connection refused', retryAt: new Date(0) }));
      }
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
      return real.paymentStatuses(orders);
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

type Kind = 'payout' | 'refund' | 'split';

/** An outgoing payment ordered and held, its submission not yet run; `row` finds it once it exists. */
interface Started {
  accountId: number;
  event: 'cash_out' | 'refund_in';
  /** The job the network hears of it from: its submit step, or (a split) the split job that creates it. */
  nextJob: 'payment.submit' | 'charge.splits';
  row(): Promise<{ id: number; transaction_id: string } | undefined>;
}

const byUuid = (uuid: string) => () => h.c.db.selectFrom('transactions').select(['id', 'transaction_id']).where('transaction_id', '=', uuid).executeTakeFirst();

/** Orders one outgoing payment of the kind, up to the step before the network hears of it. */
async function startPayment(kind: Kind): Promise<Started> {
  const account = await payer(h, 500);
  if (kind === 'payout') {
    const res = await h.api('POST', '/api/pix/cash-out', account.token, cashOutBody({ value: 25 }));
    expect(res.statusCode, res.body).toBe(201);
    return { accountId: account.id, event: 'cash_out', nextJob: 'payment.submit', row: byUuid(res.json().transactionId) };
  }
  if (kind === 'refund') {
    const received = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', account.id).where('kind', '=', 'PAYMENT').executeTakeFirstOrThrow();
    const res = await h.api('POST', `/api/pix/refund-in/${received.id}`, account.token, { refundValue: 25 });
    expect(res.statusCode, res.body).toBe(201);
    return { accountId: account.id, event: 'refund_in', nextJob: 'payment.submit', row: byUuid(res.json().transactionId) };
  }
  const created = await h.api(
    'POST',
    '/api/pix/cash-in',
    account.token,
    {
      transaction: { value: 100, description: 'Venda', externalId: `split-${Date.now()}-${Math.random()}` },
      payer: { fullName: 'Cliente', document: cpf(7) },
      splits: [{ pixKey: `fornecedor${Date.now()}@loja.example`, pixKeyType: 'EMAIL', name: 'Fornecedor', document: cpf(9001), type: 'FIXED', value: 25, immediate: true }],
    },
    { 'x-sandbox-scenario': 'pending' },
  );
  expect(created.statusCode, created.body).toBe(201);
  const paid = await h.api('POST', `/sandbox/charges/${created.json().transactionId}/pay`, account.token, {});
  expect(paid.statusCode, paid.body).toBe(200);
  // The split job (due now) will create the held split payout and its submit step, in one transaction.
  const row = () => h.c.db.selectFrom('transactions').select(['id', 'transaction_id']).where('account_id', '=', account.id).where('origin', '=', 'split').executeTakeFirst();
  return { accountId: account.id, event: 'cash_out', nextJob: 'charge.splits', row };
}

async function waitFor(done: () => Promise<boolean>, step: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) {
    if (await done()) return;
    await step();
  }
  throw new Error('condition never met');
}

/** Runs the due work, moving the clock, until the payment exists and is finished. */
async function settle(p: Started) {
  await waitFor(
    async () => {
      const row = await p.row();
      return row !== undefined && (await h.c.db.selectFrom('transactions').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status !== 'PENDING';
    },
    async () => {
      await h.c.scheduler.runDue();
      h.clock.advance(3);
    },
  );
  await h.c.scheduler.runDue(); // the follow-up jobs of a finished payment find nothing left to do
}

/** Exactly once: finished CONFIRMED, paid once at the network, one event, no step left, books green. */
async function expectOnce(p: Started) {
  const { id, transaction_id: reference } = (await p.row())!;
  const payouts = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', p.accountId).where('kind', 'in', ['WITHDRAW', 'REFUND_IN']).execute();
  expect(payouts).toHaveLength(1);
  const row = await h.c.db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  expect(row.status).toBe('CONFIRMED');
  const atNetwork = await h.c.db.selectFrom('sandbox_network_payments').select('reference').where('reference', '=', reference).execute();
  expect(atNetwork).toHaveLength(1);
  const events = await h.c.db.selectFrom('events').select('type').where('transaction_id', '=', id).execute();
  expect(events.map((e) => e.type)).toEqual([p.event]);
  const settles = await h.c.db.selectFrom('postings').select('reason').where('transaction_id', '=', id).where('reason', '=', 'settle').where('account_id', '=', p.accountId).execute();
  expect(settles).toHaveLength(1);
  const left = await sql<{ n: string }>`SELECT count(*) AS n FROM jobs WHERE kind LIKE 'payment.%' AND (payload->>'id')::bigint = ${id}`.execute(h.c.db);
  expect(Number(left.rows[0]!.n)).toBe(0);
  expect(await h.c.checkLedger()).toMatchObject({ ok: true });
  expect((await h.balance(p.accountId)).blocked).toBe(0);
}

/** The pending job that hands this payment to the network next (or, for a split, creates it). */
async function nextJobOf(p: Started) {
  const rows = await h.c.db.selectFrom('jobs').select(['id', 'payload', 'lease_until']).where('kind', '=', p.nextJob).execute();
  const mine = [];
  for (const r of rows) {
    const payload = r.payload as { id?: number; chargeId?: number };
    if (p.nextJob === 'payment.submit' && payload.id === (await p.row())?.id) mine.push(r);
    if (p.nextJob === 'charge.splits') {
      const charge = await h.c.db.selectFrom('charges').select('account_id').where('id', '=', payload.chargeId!).executeTakeFirst();
      if (charge?.account_id === p.accountId) mine.push(r);
    }
  }
  return mine;
}

/** A fault that fires on the Nth statement that finishes a payment, inside the record transaction. */
async function armRecordFault() {
  await sql`CREATE SEQUENCE IF NOT EXISTS record_fault`.execute(h.c.db);
  await sql`SELECT setval('record_fault', 1, false)`.execute(h.c.db);
  await sql`CREATE OR REPLACE FUNCTION record_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- nextval is not rolled back with the failing transaction: the fault fires once.
      IF nextval('record_fault') = 1 THEN RAISE EXCEPTION 'injected fault before commit'; END IF;
      RETURN NEW;
    END $$`.execute(h.c.db);
  await sql`DROP TRIGGER IF EXISTS record_fault ON transactions`.execute(h.c.db);
  await sql`CREATE TRIGGER record_fault BEFORE UPDATE OF status ON transactions FOR EACH ROW
    WHEN (OLD.status = 'PENDING' AND NEW.status <> 'PENDING') EXECUTE FUNCTION record_fault()`.execute(h.c.db);
}
async function disarmRecordFault() {
  await sql`DROP TRIGGER IF EXISTS record_fault ON transactions`.execute(h.c.db);
}

describe.each<Kind>(['payout', 'refund', 'split'])('a %s killed at each step boundary ends exactly once (PostgreSQL)', (kind) => {
  it('the recording transaction fails before commit: nothing of it stays, the step runs again', async () => {
    const p = await startPayment(kind);
    await armRecordFault();
    try {
      await settle(p);
    } finally {
      await disarmRecordFault();
    }
    expect(h.logLines.some((l) => l.includes('injected fault before commit'))).toBe(true);
    await expectOnce(p);
  });

  it('a worker dies after the network took the payment: another takes over after the lease, the late one records nothing', async () => {
    const p = await startPayment(kind);
    let arrived!: () => void;
    const inNetwork = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const dying = await h.instance(faultNetwork({ hangAfterSubmit: { arrived: () => arrived(), release: new Promise<void>((resolve) => (release = resolve)) } }));
    const stuck = dying.scheduler.runDue();
    await inNetwork; // the submission reached the network; its worker is gone before recording
    const row = (await p.row())!;
    const held = await h.c.db.selectFrom('jobs').select(['lease_until']).where('kind', '=', 'payment.submit').where(sql<boolean>`(payload->>'id')::bigint = ${row.id}`).executeTakeFirstOrThrow();
    expect(held.lease_until).not.toBeNull();
    // Nobody else may take it while the lease lasts.
    await h.c.scheduler.runDue();
    expect((await h.c.db.selectFrom('transactions').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('PENDING');
    // The lease lapses (real time on the database server), and the live instance completes it.
    await sql`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(h.c.db);
    await settle(p);
    // The dead worker wakes up late: its lease is gone, so it records nothing.
    release();
    await stuck;
    await expectOnce(p);
  });

  it('a duplicate of the next job: it pays once (the network deduplicates; a split share is paid once), the second run changes nothing', async () => {
    const p = await startPayment(kind);
    const [job] = await nextJobOf(p);
    await sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at)
      SELECT kind, run_at, payload, max_attempts, created_at, updated_at FROM jobs WHERE id = ${job!.id}`.execute(h.c.db);
    expect(await nextJobOf(p)).toHaveLength(2);
    await settle(p);
    await expectOnce(p);
  });

  it('the network answers "unknown" (answer lost after it committed, then a status query fails), then the real outcome', async () => {
    const p = await startPayment(kind);
    faults.lostSubmitAnswer = true;
    faults.unknownStatus = true;
    await settle(p);
    expect(faults).toMatchObject({ lostSubmitAnswer: false, unknownStatus: false });
    await expectOnce(p);
  });

  it('the simulator forgets a payment it took (its unlogged table emptied, as a database crash does): submitted again, ends once', async () => {
    // Migration 997: the simulator's books are unlogged (no WAL per cash-out); a crash of the
    // database empties them, which must cost nothing but a second submission.
    const persistence = await sql<{ p: string }>`SELECT relpersistence AS p FROM pg_class WHERE oid = 'sandbox_network_payments'::regclass`.execute(h.c.db);
    expect(persistence.rows[0]!.p).toBe('u');
    const p = await startPayment(kind);
    await waitFor(
      async () => {
        const row = await p.row();
        if (!row) return false;
        const taken = await h.c.db.selectFrom('sandbox_network_payments').select('reference').where('reference', '=', row.transaction_id).execute();
        return taken.length === 1;
      },
      () => h.c.scheduler.runDue(),
    );
    await sql`TRUNCATE sandbox_network_payments`.execute(h.c.db);
    await settle(p);
    await expectOnce(p);
  });

  it('a submission that never arrived: the status query says not found, and it is submitted again, once', async () => {
    const p = await startPayment(kind);
    faults.submitNeverArrives = true;
    await settle(p);
    expect(faults.submitNeverArrives).toBe(false);
    await expectOnce(p);
  });
});

/**
 * The debits the one admission settles at once, in the transaction that admits them (issue 22 item
 * 3): a split payout to a key of ours (the split job's transaction) and an approved MED's return
 * (the approval's transaction). The fault fires as the admitted row is finished; nothing of that
 * transaction may stay, and running it again moves the money exactly once.
 */
describe('debits settled at once through the one admission fail before commit and end exactly once (PostgreSQL)', () => {
  it('a split payout on-us: the split job fails as it settles, runs again, and pays the share once', async () => {
    const owner = await payer(h, 100);
    const partner = await payer(h, 0);
    const created = await h.api(
      'POST',
      '/api/pix/cash-in',
      owner.token,
      {
        transaction: { value: 100, description: 'Venda', externalId: `split-onus-${Date.now()}` },
        payer: { fullName: 'Cliente', document: cpf(7) },
        splits: [{ pixKey: partner.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro', document: partner.document, type: 'FIXED', value: 25, immediate: true }],
      },
      { 'x-sandbox-scenario': 'pending' },
    );
    expect(created.statusCode, created.body).toBe(201);
    expect((await h.api('POST', `/sandbox/charges/${created.json().transactionId}/pay`, owner.token, {})).statusCode).toBe(200);
    const splitRow = () => h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', owner.id).where('origin', '=', 'split').executeTakeFirst();
    await armRecordFault();
    try {
      await h.c.scheduler.runDue();
      // The job's transaction rolled back as the admitted payout was being settled: no row, no hold, no credit.
      expect(h.logLines.some((l) => l.includes('injected fault before commit'))).toBe(true);
      expect(await splitRow()).toBeUndefined();
      expect(await h.balance(partner.id)).toEqual({ available: 0, blocked: 0 });
      expect((await h.balance(owner.id)).blocked).toBe(0);
      await waitFor(async () => (await splitRow())?.status === 'CONFIRMED', async () => {
        h.clock.advance(10);
        await h.c.scheduler.runDue();
      });
    } finally {
      await disarmRecordFault();
    }
    await h.c.scheduler.runDue();
    const rows = await h.c.db.selectFrom('transactions').select(['id', 'status', 'original_amount']).where('account_id', '=', owner.id).where('origin', '=', 'split').execute();
    expect(rows.map((r) => [r.status, r.original_amount])).toEqual([['CONFIRMED', 2500]]);
    expect(await h.balance(partner.id)).toEqual({ available: 25, blocked: 0 });
    expect(await h.balance(owner.id)).toEqual({ available: 100 + 100 - 25, blocked: 0 });
    const events = await h.c.db.selectFrom('events').select('type').where('transaction_id', '=', rows[0]!.id).execute();
    expect(events.map((e) => e.type)).toEqual(['cash_out']);
    expect(await h.c.checkLedger()).toMatchObject({ ok: true });
  });

  it('a MED return: the approval fails as the return settles, nothing stays; approved again, the money returns once', async () => {
    const account = await payer(h, 100);
    const pix = await h.c.db.selectFrom('transactions').select(['id', 'end_to_end_id']).where('account_id', '=', account.id).where('kind', '=', 'PAYMENT').executeTakeFirstOrThrow();
    const opened = await h.api('POST', '/sandbox/med', account.token, { endToEndId: pix.end_to_end_id, cause: 'SCAM', description: 'golpe', amount: 40 });
    expect(opened.statusCode, opened.body).toBe(201);
    const medId = opened.json().id;
    expect((await h.api('POST', `/sandbox/med/${medId}/transition`, account.token, { to: 'RECEIVED' })).statusCode).toBe(200);
    expect(await h.balance(account.id)).toEqual({ available: 60, blocked: 40 });
    const approve = () => h.api('POST', `/sandbox/med/${medId}/transition`, account.token, { to: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'golpe confirmado' });
    await armRecordFault();
    try {
      const failed = await approve();
      expect(failed.statusCode, failed.body).toBe(500);
    } finally {
      await disarmRecordFault();
    }
    expect(h.logLines.some((l) => l.includes('injected fault before commit'))).toBe(true);
    // Nothing of the approval stayed: the MED is still RECEIVED with its block, the PIX unrefunded.
    expect((await h.api('GET', `/api/med?page=1&pageSize=50`, account.token)).json().data.find((m: { id: number }) => m.id === medId)).toMatchObject({ status: 'RECEIVED' });
    expect(await h.balance(account.id)).toEqual({ available: 60, blocked: 40 });
    expect(await h.c.db.selectFrom('transactions').select('id').where('parent_id', '=', pix.id).execute()).toEqual([]);
    expect((await h.c.db.selectFrom('transactions').select('refunded_amount').where('id', '=', pix.id).executeTakeFirstOrThrow()).refunded_amount).toBe(0);
    // Approved again, and once more: one return, the second refused by the MED's state.
    expect((await approve()).statusCode).toBe(200);
    const again = await approve();
    expect([again.statusCode, again.json().message]).toEqual([409, 'A MED in ANALYZED cannot move to ANALYZED']);
    const returns = await h.c.db.selectFrom('transactions').select(['id', 'status', 'origin', 'original_amount']).where('parent_id', '=', pix.id).execute();
    expect(returns.map((r) => [r.origin, r.status, r.original_amount])).toEqual([['med', 'CONFIRMED', 4000]]);
    expect((await h.c.db.selectFrom('transactions').select('refunded_amount').where('id', '=', pix.id).executeTakeFirstOrThrow()).refunded_amount).toBe(4000);
    expect(await h.balance(account.id)).toEqual({ available: 60, blocked: 0 });
    expect(await h.c.checkLedger()).toMatchObject({ ok: true });
  });
});
