import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMISSION_OUTCOMES } from '../../src/domain/closed-lists.ts';
import { cents } from '../../src/domain/money.ts';
import { FUNCTIONS_FOLDER } from '../../src/db/function-sources.ts';
import { admissionBlockItem, admissionItem, parseAdmissionAnswer, type AdmissionAnswer, type AdmissionBlockItem, type AdmissionItem } from '../../src/services/payouts/admission-wire.ts';

/**
 * Issue 28 item 5: the admission's items and outcomes typed end to end. The items are a union over the
 * debit origins (each with its origin's rules), the answer a union over ADMISSION_OUTCOMES, parsed at
 * one place. The `@ts-expect-error` lines are checked by `npx tsc --noEmit` (test/ is in its include):
 * each fails the compile the day its line compiles.
 */
const row = { transaction_id: 't', family: 'api', external_id: 'e', end_to_end_id: null, parent_id: null, pix_key: null, description: null, counterpart: {} as never, metadata: {}, scenario: null } as const;
const common = { idx: 0, accountId: 1, receiverId: null, amount: cents(100), job: null, tx: row };

// @ts-expect-error an item whose rules are not its origin's (a cash-out is a WITHDRAW) does not compile
export const wrongKind: AdmissionItem = { ...admissionItem('cash_out', common), kind: 'REFUND_IN' };
// @ts-expect-error an item that says its money is held when its origin's rules say not
export const wrongHeld: AdmissionItem = { ...admissionItem('refund_in', common), held: true };
// @ts-expect-error a block item that says a suspension stops it when its origin's rules (a MED's block) say not
export const wrongBlockRule: AdmissionBlockItem = { ...admissionBlockItem('med_block', { idx: 0, accountId: 1, amount: cents(1), transactionId: 1 }), stopsWhenSuspended: true };
// @ts-expect-error a block item has no receiving account (it moves money within its own account)
export const blockWithRow: AdmissionBlockItem = { ...admissionBlockItem('med_block', { idx: 0, accountId: 1, amount: cents(1), transactionId: 1 }), receiverId: 2 };
// @ts-expect-error an outcome outside ADMISSION_OUTCOMES is not an answer
export const unknownOutcome: AdmissionAnswer = { outcome: 'MAYBE' };

/** A switch over the answer that forgets an outcome does not compile (the `never` of its default). */
export function exhaustive(answer: AdmissionAnswer): string {
  switch (answer.outcome) {
    case 'admitted':
    case 'failed':
    case 'blocked':
    case 'NOT_FOUND':
    case 'PIX_INVALID_AMOUNT':
    case 'PIX_TRANSACTION_LIMIT_EXCEEDED':
    case 'PIX_DAILY_LIMIT_EXCEEDED':
    case 'DUPLICATE':
    case 'INSUFFICIENT':
    case 'BUSY':
      return answer.outcome;
    default: {
      // @ts-expect-error PIX_NIGHT_LIMIT_EXCEEDED is left out above, so `answer` is not `never` here
      const left: never = answer;
      return left;
    }
  }
}

/** The outcome literals the SQL of the admission answers (admit_payouts, its phases' functions, and the item check it runs). */
function outcomesInSql(): string[] {
  const phases = readdirSync(FUNCTIONS_FOLDER).filter((f) => f === 'admit_payouts.sql' || f.startsWith('admission_'));
  const admit = phases.map((f) => readFileSync(path.join(FUNCTIONS_FOLDER, f), 'utf8')).join('\n');
  const check = readFileSync(path.join(FUNCTIONS_FOLDER, 'debit_item_check.sql'), 'utf8');
  return [
    ...[...admit.matchAll(/(?:res|p|o)_outcome\[\w+\]\s*:=\s*'(\w+)'/g)].map((m) => m[1]!),
    ...[...check.matchAll(/SELECT\s+'(\w+)'::text/g)].map((m) => m[1]!),
  ];
}

describe('the admission, typed both ways', () => {
  it('the SQL answers exactly the outcomes of ADMISSION_OUTCOMES (one closed list for both sides)', () => {
    expect([...new Set(outcomesInSql())].sort()).toEqual([...ADMISSION_OUTCOMES].sort());
  });

  it('an item carries its origin\'s rules, whatever the caller passes', () => {
    const split = admissionItem('split', common);
    expect(split).toMatchObject({ kind: 'WITHDRAW', limited: false, chargesFee: false, held: false, tx: { origin: 'split' } });
    expect(split.failWith).toEqual({ errorCode: 'INSUFFICIENT_FUNDS', errorMessage: 'Saldo insuficiente para pagar o split.' });
    expect(admissionItem('med', common)).toMatchObject({ kind: 'REFUND_IN', held: true, holdReason: 'med_block', failWith: null });
  });

  it('a block item carries its block origin\'s rules and the row its hold is posted against, and no row of its own', () => {
    expect(admissionBlockItem('med_block', { idx: 3, accountId: 1, amount: cents(250), transactionId: 9 })).toEqual({
      idx: 3,
      accountId: 1,
      receiverId: null,
      amount: 250,
      block: { origin: 'med_block', transactionId: 9 },
      holdReason: 'med_block',
      stopsWhenSuspended: false,
      chargesFee: false,
      limited: false,
    });
  });

  it('parses each kind of answer at one place, and refuses an unknown outcome or a stored outcome without its row', () => {
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'PIX_DAILY_LIMIT_EXCEEDED', detail: { limit: 5000 }, tx: null })).toEqual({ outcome: 'PIX_DAILY_LIMIT_EXCEEDED', limit: 5000 });
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'PIX_TRANSACTION_LIMIT_EXCEEDED', detail: null, tx: null })).toEqual({ outcome: 'PIX_TRANSACTION_LIMIT_EXCEEDED', limit: undefined });
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'DUPLICATE', detail: { existingTransactionId: 'x' }, tx: null })).toEqual({ outcome: 'DUPLICATE', existingTransactionId: 'x' });
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'BUSY', detail: null, tx: null })).toEqual({ outcome: 'BUSY' });
    const stored = parseAdmissionAnswer({ idx: 1, outcome: 'admitted', detail: null, tx: { id: 7, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', processed_at: null } });
    expect(stored.outcome === 'admitted' && stored.tx.id === 7 && stored.tx.created_at instanceof Date).toBe(true);
    expect(() => parseAdmissionAnswer({ idx: 1, outcome: 'MAYBE', detail: null, tx: null })).toThrow(/unknown outcome: MAYBE/);
    expect(() => parseAdmissionAnswer({ idx: 1, outcome: 'failed', detail: null, tx: null })).toThrow(/failed without its row/);
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'blocked', detail: { amount: 250 }, tx: null })).toEqual({ outcome: 'blocked', amount: 250 });
    expect(parseAdmissionAnswer({ idx: 1, outcome: 'blocked', detail: { amount: 0 }, tx: null })).toEqual({ outcome: 'blocked', amount: 0 });
    expect(() => parseAdmissionAnswer({ idx: 1, outcome: 'blocked', detail: null, tx: null })).toThrow(/blocked without its amount/);
  });
});
