/** Durable job kinds of the charges feature. */
export const CHARGE_JOBS = {
  /** generateTime + expirationTime: an unpaid charge expires (decisions 4.3). */
  expire: 'charge.expire',
  /** A paid charge's split payouts, at once or at the account's split frequency. */
  splits: 'charge.splits',
} as const;
