/**
 * The chart of accounts (migration 610). Customer accounts have two ledger accounts each, their
 * `available` and `blocked` buckets (balances on the accounts row); these system accounts are the
 * other side of every movement that enters or leaves a customer:
 * - `network:<adapter>`: settlement clearing with one PIX network adapter (`PixNetwork.ledgerAccount`);
 * - `onus_clearing`: on-us payments between two accounts of this service (nets to zero);
 * - `fee_revenue`: cash-in and cash-out fees;
 * - `med_clearing`: money returned through MED;
 * - `world`: the outside world, the source of sandbox deposits;
 * - `suspense`: differences nobody explained (single-entry postings from before migration 610).
 * A new network adapter adds its `network:` row to `ledger_accounts` in its migration.
 */
export type NetworkClearingAccount = `network:${string}`;
export type SystemAccount = NetworkClearingAccount | 'onus_clearing' | 'fee_revenue' | 'med_clearing' | 'world' | 'suspense';
