import { describe, expect, it } from 'vitest';
import { BLOCK_ORIGINS, DEBIT_KINDS, DEBIT_ORIGINS, type BlockOrigin, type DebitOrigin } from '../../src/domain/closed-lists.ts';
import { BLOCK_ORIGIN_RULES, DEBIT_ORIGIN_RULES, type BlockRules, type DebitRules } from '../../src/services/payouts/debit-origins.ts';
import { ORIGIN_SETTLEMENT, settlementOf } from '../../src/services/settlement/origin-settlement.ts';
import type { SettlementHook } from '../../src/services/settlement/settlement-hook.ts';

/**
 * Issue 28 item 5: each debit origin's admission rules and settlement rules are tables over the closed
 * list of debit origins. The type-level half is checked by `npx tsc --noEmit` (test/ is in tsconfig's
 * include): each `@ts-expect-error` below fails the compile the day its line compiles, i.e. the day a
 * table without one origin would be accepted.
 */
const { med: _medSettlement, ...settlementWithoutMed } = ORIGIN_SETTLEMENT;
// @ts-expect-error a settlement table that lost an origin's entry is not a Record<DebitOrigin, SettlementHook>
settlementWithoutMed satisfies Record<DebitOrigin, SettlementHook>;
const { split: _splitRules, ...rulesWithoutSplit } = DEBIT_ORIGIN_RULES;
// @ts-expect-error an admission table that lost an origin's entry is not a Record<DebitOrigin, DebitRules>
rulesWithoutSplit satisfies Record<DebitOrigin, DebitRules>;
const { med_block: _medBlockRules, ...blockRulesWithoutMedBlock } = BLOCK_ORIGIN_RULES;
// @ts-expect-error a block table that lost an origin's entry is not a Record<BlockOrigin, BlockRules>
blockRulesWithoutMedBlock satisfies Record<BlockOrigin, BlockRules>;
// @ts-expect-error an origin outside the closed list has no entry to look up
ORIGIN_SETTLEMENT['cash_in' satisfies string as 'cash_in'];

describe('debit origins: one typed table each for admission and settlement', () => {
  it('every origin of the closed list has its admission rules and its settlement rules, and no table has more', () => {
    expect(Object.keys(DEBIT_ORIGIN_RULES).sort()).toEqual([...DEBIT_ORIGINS].sort());
    expect(Object.keys(ORIGIN_SETTLEMENT).sort()).toEqual([...DEBIT_ORIGINS].sort());
    for (const origin of DEBIT_ORIGINS) {
      expect(DEBIT_KINDS).toContain(DEBIT_ORIGIN_RULES[origin].kind);
      expect(typeof ORIGIN_SETTLEMENT[origin].onFinished).toBe('function');
    }
  });

  it('every block origin has its admission rules (and no settlement rules: a block has no row); no block origin is a debit origin', () => {
    expect(Object.keys(BLOCK_ORIGIN_RULES).sort()).toEqual([...BLOCK_ORIGINS].sort());
    expect(BLOCK_ORIGINS.filter((o) => (DEBIT_ORIGINS as readonly string[]).includes(o))).toEqual([]);
    expect(BLOCK_ORIGINS.filter((o) => o in ORIGIN_SETTLEMENT)).toEqual([]);
    // A MED's opening block is the network's measure, not the account's own action: a suspension does not stop it.
    expect(BLOCK_ORIGIN_RULES.med_block).toEqual({ holdReason: 'med_block', stopsWhenSuspended: false, chargesFee: false, limited: false });
  });

  it('every payout origin shares one settlement object (a batch gives back its limits in one statement)', () => {
    const payoutOrigins = DEBIT_ORIGINS.filter((o) => DEBIT_ORIGIN_RULES[o].kind === 'WITHDRAW');
    expect(payoutOrigins.sort()).toEqual(['cash_out', 'cash_out_qrcode', 'dict', 'split']);
    expect(new Set(payoutOrigins.map((o) => ORIGIN_SETTLEMENT[o])).size).toBe(1);
  });

  it('a stored row of an origin that is not a debit origin is refused by name, not run with no rules', () => {
    expect(() => settlementOf('cash_in')).toThrow(/no settlement rules for origin "cash_in"/);
    expect(settlementOf('med')).toBe(ORIGIN_SETTLEMENT.med);
  });
});
