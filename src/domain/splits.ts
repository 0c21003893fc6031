import { cents } from './money.ts';
import type { Cents } from './money.ts';

export type SplitRule =
  | { type: 'FIXED'; value: Cents | number }
  /** value in parts per million of the gross amount: 10% = 100_000 (percent with up to 4 decimals). */
  | { type: 'PERCENTAGE'; value: Cents | number };

/** PERCENTAGE values are parts of this: 1_000_000 is the whole gross amount. */
export const PERCENT_SCALE = 1_000_000;
const SCALE = BigInt(PERCENT_SCALE);

export type SplitAllocation = { shares: Cents[]; remainder: Cents } | { error: 'SPLITS_EXCEED_AMOUNT' };

function assertNonNegativeInteger(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer: ${n}`);
}

/**
 * Shares of a paid charge (interface spec, cash-in splits): FIXED is an amount, PERCENTAGE a
 * share of the gross amount rounded down to the cent, so rounding can only favour the account,
 * which keeps the remainder.
 *
 * "Sum of splits must not exceed the amount" is checked on the exact, unrounded sum: 60% + 60%
 * is refused even on a 1-cent charge where both round down to 0. Passing that check implies the
 * rounded shares fit as well.
 */
export function allocateSplits(gross: Cents, splits: readonly SplitRule[]): SplitAllocation {
  assertNonNegativeInteger('The gross amount', gross);
  let fixedTotal = 0n;
  let ppmTotal = 0n;
  for (const split of splits) {
    assertNonNegativeInteger(`A ${split.type} split value`, split.value);
    if (split.type === 'FIXED') fixedTotal += BigInt(split.value);
    else ppmTotal += BigInt(split.value);
  }
  // fixed + gross * ppm / 1e6 <= gross, multiplied through by 1e6 to stay in integers.
  if (fixedTotal * SCALE + BigInt(gross) * ppmTotal > BigInt(gross) * SCALE) {
    return { error: 'SPLITS_EXCEED_AMOUNT' };
  }
  const shares = splits.map((split) =>
    split.type === 'FIXED' ? cents(split.value) : cents(Number((BigInt(gross) * BigInt(split.value)) / SCALE)),
  );
  const remainder = cents(shares.reduce((left, share) => left - share, gross as number));
  return { shares, remainder };
}
