import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT, cents } from './money.ts';
import { allocateSplits, PERCENT_SCALE } from './splits.ts';
import type { SplitRule } from './splits.ts';

const fixed = (value: number): SplitRule => ({ type: 'FIXED', value: cents(value) });
// Written in basis points for readability, held in parts per million.
const PPM_PER_BASIS_POINT = PERCENT_SCALE / 10_000;
const pct = (bp: number): SplitRule => ({ type: 'PERCENTAGE', value: bp * PPM_PER_BASIS_POINT });

describe('allocateSplits', () => {
  it.each<[string, number, SplitRule[], number[], number]>([
    ['no splits', 10000, [], [], 10000],
    ['one fixed', 10000, [fixed(2500)], [2500], 7500],
    ['one percentage', 10000, [pct(1000)], [1000], 9000],
    ['a 4-decimal percentage (33.3333%)', 10000, [{ type: 'PERCENTAGE', value: 333_333 }], [3333], 6667],
    ['fixed and percentage of the gross, not of what is left', 10000, [fixed(5000), pct(5000)], [5000, 5000], 0],
    ['percentages round down: 33.33% of 0.10', 10, [pct(3333), pct(3333), pct(3333)], [3, 3, 3], 1],
    ['round down, not half-up: 1.5% of 1 real is 1.5 cents -> 1', 100, [pct(150)], [1], 99],
    ['50% of 1.99 is 99.5 cents -> 99', 199, [pct(5000)], [99], 100],
    ['100% in parts', 10001, [pct(5000), pct(5000)], [5000, 5000], 1],
    ['exactly the gross in fixed', 10000, [fixed(4000), fixed(6000)], [4000, 6000], 0],
    ['zero gross, percentages only', 0, [pct(10000)], [0], 0],
  ])('%s', (_why, gross, splits, shares, remainder) => {
    expect(allocateSplits(cents(gross), splits)).toEqual({ shares, remainder });
  });

  it.each<[string, number, SplitRule[]]>([
    ['fixed above the gross', 10000, [fixed(10001)]],
    ['fixed parts above the gross', 10000, [fixed(6000), fixed(4001)]],
    ['more than 100%', 10000, [pct(6000), pct(4001)]],
    ['more than 100% even where every share rounds to 0', 1, [pct(6000), pct(6000)]],
    ['fixed plus a percentage of the gross', 10000, [fixed(5000), pct(5001)]],
    ['fixed filling the gross plus any percentage', 1, [fixed(1), pct(1)]],
  ])('%s -> SPLITS_EXCEED_AMOUNT', (_why, gross, splits) => {
    expect(allocateSplits(cents(gross), splits)).toEqual({ error: 'SPLITS_EXCEED_AMOUNT' });
  });

  it.each<[string, number, SplitRule[]]>([
    ['negative gross', -1, []],
    ['negative fixed', 100, [fixed(-1)]],
    ['fractional fixed', 100, [{ type: 'FIXED', value: 1.5 }]],
    ['fractional parts per million', 100, [{ type: 'PERCENTAGE', value: 1.5 }]],
  ])('%s throws', (_why, gross, splits) => {
    expect(() => allocateSplits(cents(gross), splits)).toThrow(RangeError);
  });
});

const grossArb = fc.integer({ min: 0, max: MAX_AMOUNT });
const ruleArb = (gross: number): fc.Arbitrary<SplitRule> =>
  fc.oneof(
    fc.integer({ min: 0, max: gross }).map((v) => fixed(v)),
    fc.integer({ min: 0, max: 10_000 }).map((bp) => pct(bp)),
  );
const caseArb = grossArb.chain((gross) => fc.tuple(fc.constant(gross), fc.array(ruleArb(gross), { maxLength: 10 })));

describe('allocateSplits properties', () => {
  it('shares plus remainder equal the gross, and nothing is negative', () => {
    let allocated = 0; // runs with at least one split that were allocated (refusals check nothing here)
    fc.assert(
      fc.property(caseArb, ([gross, splits]) => {
        const result = allocateSplits(cents(gross), splits);
        if ('error' in result) return;
        if (splits.length > 0) allocated += 1;
        expect(result.shares).toHaveLength(splits.length);
        expect(result.shares.reduce((a, b) => a + b, 0) + result.remainder).toBe(gross);
        expect(result.remainder).toBeGreaterThanOrEqual(0);
        for (const share of result.shares) expect(share).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
    expect(allocated).toBeGreaterThan(150); // about 350 of 2000 in practice
  });

  it('each percentage share is the exact share rounded down', () => {
    let percentages = 0; // percentage shares actually checked
    fc.assert(
      fc.property(caseArb, ([gross, splits]) => {
        const result = allocateSplits(cents(gross), splits);
        if ('error' in result) return;
        splits.forEach((split, i) => {
          const share = result.shares[i] ?? NaN;
          if (split.type === 'FIXED') expect(share).toBe(split.value);
          else {
            percentages += 1;
            // share <= gross * bp / 10000 < share + 1, in integers
            expect(BigInt(share) * 1_000_000n <= BigInt(gross) * BigInt(split.value)).toBe(true);
            expect(BigInt(share + 1) * 1_000_000n > BigInt(gross) * BigInt(split.value)).toBe(true);
          }
        });
      }),
      { numRuns: 2000 },
    );
    expect(percentages).toBeGreaterThan(150); // about 330 in practice
  });

  it('refuses exactly when fixed amounts plus exact percentages exceed the gross', () => {
    fc.assert(
      fc.property(caseArb, ([gross, splits]) => {
        const fixedTotal = splits.filter((s) => s.type === 'FIXED').reduce((a, s) => a + s.value, 0);
        const bpTotal = splits.filter((s) => s.type === 'PERCENTAGE').reduce((a, s) => a + s.value, 0);
        const exceeds = BigInt(fixedTotal) * 1_000_000n + BigInt(gross) * BigInt(bpTotal) > BigInt(gross) * 1_000_000n;
        expect('error' in allocateSplits(cents(gross), splits)).toBe(exceeds);
      }),
      { numRuns: 2000 },
    );
  });

  it('percentages up to 100% in total are always accepted', () => {
    fc.assert(
      fc.property(grossArb, fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 10 }), (gross, bps) => {
        expect('error' in allocateSplits(cents(gross), bps.map(pct))).toBe(false);
      }),
    );
  });
});
