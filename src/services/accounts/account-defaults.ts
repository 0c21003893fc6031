import type { Cents } from '../../domain/money.ts';

export type { AccountType } from '../../domain/closed-lists.ts';
import type { AccountType } from '../../domain/closed-lists.ts';

/** Decisions 4.7: default cash-out limits per account type, in cents. */
export const DEFAULT_LIMITS: Record<AccountType, { perTransaction: Cents; daily: Cents; nightly: Cents }> = {
  INDIVIDUAL: { perTransaction: 500_000 as Cents, daily: 2_000_000 as Cents, nightly: 100_000 as Cents },
  COMPANY: { perTransaction: 10_000_000 as Cents, daily: 100_000_000 as Cents, nightly: 5_000_000 as Cents },
};
