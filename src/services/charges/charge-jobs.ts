/** Durable job kinds of the charges feature. */
export const CHARGE_JOBS = {
  /** The sandbox's simulated payer pays (or the network rejects) a charge, after the settlement delay. */
  settle: 'charge.settle',
  /** generateTime + expirationTime: an unpaid charge expires (decisions 4.3). */
  expire: 'charge.expire',
  /** A paid charge's split payouts, at once or at the account's split frequency. */
  splits: 'charge.splits',
} as const;
