import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { MedStatus } from '../../src/db/schema/refunds.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Step =
  | { op: 'open'; pix: number; amount: number | null }
  | { op: 'move'; med: number; to: MedStatus; result: 'APPROVED' | 'REJECTED' | null }
  | { op: 'refund'; pix: number; amount: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('open' as const), pix: fc.nat(2), amount: fc.option(fc.integer({ min: 1, max: 6000 }), { nil: null }) }),
  fc.record({
    op: fc.constant('move' as const),
    med: fc.nat(5),
    to: fc.constantFrom<MedStatus>('OPEN', 'RECEIVED', 'ANALYZED', 'CANCELLED'),
    result: fc.constantFrom('APPROVED' as const, 'REJECTED' as const, null),
  }),
  fc.record({ op: fc.constant('refund' as const), pix: fc.nat(2), amount: fc.integer({ min: 1, max: 4000 }) }),
);

/**
 * Any sequence of MED openings, moves (allowed or not) and refunds keeps the balances equal to the
 * postings, the blocked balance equal to what open MEDs and pending refunds hold, and every
 * original's refunds within its amount.
 */
describe('MED money rules (property)', () => {
  it('keep balances, blocks and refund sums consistent through any sequence', async () => {
    // Steps that succeeded, per kind, over all runs: the property must exercise each of them.
    const succeeded = { open: 0, move: 0, refund: 0 };
    await fc.assert(
      // Every sequence starts by opening a MED over a whole PIX, which must succeed.
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (generated) => {
        const steps: Step[] = [{ op: 'open', pix: 0, amount: null }, ...generated];
        const account = await h.createAccount();
        const pixes = [];
        for (const amount of [50, 30, 20]) pixes.push((await h.deposit(account.id, amount)) as { id: number; endToEndId: string });
        const meds: number[] = [];
        const balances = () =>
          h.c.db.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', account.id).executeTakeFirstOrThrow();
        for (const [index, s] of steps.entries()) {
          const before = await balances();
          try {
            if (s.op === 'open') {
              const med = await h.c.meds.open(
                { accountId: account.id, endToEndId: pixes[s.pix]!.endToEndId, cause: 'SCAM', description: null, ...(s.amount ? { amount: cents(Math.min(s.amount, [5000, 3000, 2000][s.pix]!)) } : {}) },
                { requireReconciled: true },
              );
              meds.push(med.id);
              succeeded.open += 1;
            } else if (s.op === 'move' && meds.length > 0) {
              await h.c.meds.transition({ accountId: account.id, medId: meds[s.med % meds.length]!, to: s.to, ...(s.result ? { analysisResult: s.result } : {}) });
              succeeded.move += 1;
            } else if (s.op === 'refund') {
              await h.c.refunds.create({
                accountId: account.id,
                original: { by: 'id', id: String(pixes[s.pix]!.id) },
                amount: cents(s.amount),
                description: null,
                refundId: undefined,
                family: 'api',
                natureza: 'ORIGINAL',
                scenario: null,
              });
              succeeded.refund += 1;
            }
          } catch (error) {
            // Only a refusal of the caller's command (4xx: invalid move, amount over what is
            // refundable or available) is expected, never the first open; and it changes nothing.
            const status = (error as { status?: number }).status;
            if (index === 0 || status === undefined || status < 400 || status >= 500) throw error;
            expect(await balances()).toEqual(before);
          }
        }
        expect(await findLedgerDrift(h.c.db)).toEqual([]);
        const acc = await h.c.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
        const medsHeld = await h.c.db.selectFrom('meds').select('blocked_amount').where('account_id', '=', account.id).execute();
        const pending = await h.c.db.selectFrom('transactions').select('final_amount').where('account_id', '=', account.id).where('status', '=', 'PENDING').execute();
        const expectedBlocked = medsHeld.reduce((s, m) => s + m.blocked_amount, 0) + pending.reduce((s, t) => s + t.final_amount, 0);
        expect(acc.blocked).toBe(expectedBlocked);
        // Money never appears or vanishes: what is left is what came in minus what settled out.
        const out = await h.c.db.selectFrom('transactions').select('final_amount').where('account_id', '=', account.id).where('kind', '=', 'REFUND_IN').where('status', '=', 'CONFIRMED').execute();
        expect(acc.available + acc.blocked).toBe(10_000 - out.reduce((s, t) => s + t.final_amount, 0));
        const originals = await h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', account.id).where('kind', '=', 'PAYMENT').execute();
        for (const o of originals) {
          const refunds = await h.c.db.selectFrom('transactions').select('final_amount').where('parent_id', '=', o.id).where('status', '!=', 'ERROR').execute();
          expect(o.refunded_amount).toBe(refunds.reduce((s, r) => s + r.final_amount, 0));
          expect(o.refunded_amount).toBeLessThanOrEqual(o.original_amount);
        }
        // Let pending refunds settle, and check again.
        await h.advance(2);
        expect(await findLedgerDrift(h.c.db)).toEqual([]);
      }),
      { numRuns: 25 },
    );
    expect(succeeded.open).toBeGreaterThan(25);
    expect(succeeded.move).toBeGreaterThan(0);
    expect(succeeded.refund).toBeGreaterThan(0);
    // 25 whole MED sequences on one database: seconds on a quiet machine, past the default 30 s on a
    // loaded one (seen at load 30). A bound for the machine, not a promise of the service.
  }, 120_000);
});
