import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Cents } from '../domain/money.ts';
import type { AuthTables } from './schema/auth.ts';
import type { ChargeTables } from './schema/charges.ts';
import type { PayoutTables } from './schema/payouts.ts';
import type { PortalTables } from './schema/portal.ts';
import type { RefundTables } from './schema/refunds.ts';
import type { WebhookTables } from './schema/webhooks.ts';
import type { SandboxNetworkTables } from './schema/sandbox-network.ts';
import type { ProviderNetworkTables } from './schema/provider-network.ts';
import type { AccountStatus, AccountType, BalanceBucket, DictKeyType, JobStatus, SplitFrequency, TestClockStatus, TransactionFamily, TransactionKind, TransactionStatus } from '../domain/closed-lists.ts';

import type { EventType, Json, Timestamp } from './schema/columns.ts';
export type { EventType, Json, Timestamp } from './schema/columns.ts';

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  document: string;
  type: AccountType;
  pix_key: string;
  available: Generated<Cents>;
  blocked: Generated<Cents>;
  limit_per_transaction: Cents;
  limit_daily: Cents;
  limit_nightly: Cents;
  fee_cash_in_fixed: Generated<Cents>;
  fee_cash_in_percent_bp: Generated<number>;
  fee_cash_out_fixed: Generated<Cents>;
  fee_cash_out_percent_bp: Generated<number>;
  split_frequency: Generated<SplitFrequency>;
  is_demo: Generated<boolean>;
  /** ACTIVE, or SUSPENDED by an operator (migration 1250): no money leaves a suspended account. */
  status: Generated<AccountStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountKeysTable {
  key: string;
  key_type: DictKeyType;
  account_id: number;
  created_at: Timestamp;
}

export type { TransactionKind, TransactionStatus };

/** The other side of a movement, as stored and shown (documents are masked only on output). */
export interface Counterpart {
  name: string | null;
  document: string | null;
  bank: {
    bankISPB: string | null;
    bankName: string | null;
    bankCode: string | null;
    accountBranch: string | null;
    accountNumber: string | null;
  };
}

export interface TransactionsTable {
  id: Generated<number>;
  transaction_id: string;
  account_id: number;
  kind: TransactionKind;
  status: TransactionStatus;
  origin: string;
  family: Generated<TransactionFamily>;
  external_id: string | null;
  original_amount: Cents;
  fee_amount: Generated<Cents>;
  final_amount: Cents;
  refunded_amount: Generated<Cents>;
  end_to_end_id: string | null;
  pix_key: string | null;
  description: string | null;
  error_code: string | null;
  error_message: string | null;
  counterpart: Json<Counterpart | null>;
  // Generated<Json<...>> would nest two ColumnTypes and refuse the JSON text on insert.
  metadata: ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
  parent_id: number | null;
  scenario: string | null;
  /**
   * True when the admission held this debit's money without postings (migration 1400): while the row is
   * PENDING the hold is the row itself; its settlement posts available -> counter, its release nothing.
   * NULL on rows whose hold was posted (a MED's block, builds before 1400).
   */
  hold_unposted: Generated<boolean | null>;
  created_at: Timestamp;
  processed_at: Timestamp | null;
  updated_at: Timestamp;
}

/** The chart's system accounts (fee revenue, clearing per network, ...); customer buckets live on `accounts`. */
export interface LedgerAccountsTable {
  code: string;
  description: string;
}

/** One line of a journal entry: a customer bucket (account_id + bucket) or a system account (ledger_account). */
export interface PostingsTable {
  id: Generated<number>;
  account_id: number | null;
  transaction_id: number | null;
  bucket: BalanceBucket | null;
  ledger_account: string | null;
  /** The postings of one movement share it and sum to zero. */
  journal_id: string;
  delta: Cents;
  reason: string;
  created_at: Timestamp;
}

export interface CertificatesTable {
  fingerprint: string;
  account_id: number;
  subject: string;
  not_before: Timestamp;
  not_after: Timestamp;
  pem: string;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface CredentialsTable {
  client_id: string;
  account_id: number;
  secret_hash: string;
  /** Space-separated OAuth scopes. */
  scopes: string;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  run_at: Timestamp;
  payload: Json<Record<string, unknown>>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  status: Generated<JobStatus>;
  last_error: string | null;
  /** A step job's claim (migration 700): real time on the database server, and whose claim it is. */
  lease_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  lease_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** The test clock whose time makes it due (migration 1500); null: the service clock. */
  clock_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A per-account test clock (migration 1500, sandbox only). */
export interface TestClocksTable {
  id: string;
  name: string | null;
  frozen_time: Timestamp;
  status: TestClockStatus;
  advance_lease_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TestClockAccountsTable {
  account_id: number;
  clock_id: string;
}

export interface EventsTable {
  id: Generated<number>;
  event_id: string;
  account_id: number;
  type: EventType;
  transaction_id: number | null;
  /**
   * json, not jsonb (migration 1000): it keeps the text exactly as emitted, so `payload::text` is the
   * body receivers get and signatures cover; drivers still parse it into an object.
   */
  payload: Json<Record<string, unknown>>;
  /**
   * The body as a separate text (migration 200): written only by instances older than migration
   * 1000, during a rolling upgrade; NULL otherwise. Readers take COALESCE(body, payload::text).
   */
  body: ColumnType<string | null, string | null | undefined, never>;
  /** The W3C trace id its deliveries carry (migration 983); null on older events. */
  trace_id: ColumnType<string | null, string | null | undefined, never>;
  /**
   * The writing transaction's id (xid8, as text; migration 1200): the events API's order is
   * (xact_id, id). Filled by the column's default; null on events older than that migration.
   */
  xact_id: ColumnType<string | null, never, never>;
  created_at: Timestamp;
}

export interface CoreTables {
  accounts: AccountsTable;
  account_keys: AccountKeysTable;
  transactions: TransactionsTable;
  postings: PostingsTable;
  ledger_accounts: LedgerAccountsTable;
  certificates: CertificatesTable;
  credentials: CredentialsTable;
  jobs: JobsTable;
  events: EventsTable;
  test_clocks: TestClocksTable;
  test_clock_accounts: TestClockAccountsTable;
}

export interface DB extends CoreTables, AuthTables, WebhookTables, PayoutTables, ChargeTables, RefundTables, PortalTables, SandboxNetworkTables, ProviderNetworkTables {}

export type Account = Selectable<AccountsTable>;
export type Transaction = Selectable<TransactionsTable>;
