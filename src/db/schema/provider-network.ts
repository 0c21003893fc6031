import type { ColumnType, Generated } from 'kysely';
import type { Json, Timestamp } from './columns.ts';
import type { Cents } from '../../domain/money.ts';
import type { Payer } from '../../domain/payer.ts';

/** Every notice the provider sent, by its Standard Webhooks id (migration 720). */
export interface ProviderNoticesTable {
  webhook_id: string;
  event: string;
  received_at: Timestamp;
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  handled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  outcome: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Charges registered at the provider, until paid or ended. */
export interface ProviderChargesTable {
  reference: string;
  expires_at: Timestamp;
  registered_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ProviderStateTable {
  key: string;
  value: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface ProviderStatementChecksTable {
  id: Generated<number>;
  checked_at: Timestamp;
  provider_balance: Cents | null;
  our_balance: Cents;
  difference: Cents | null;
  payouts_awaiting: number;
  error: string | null;
}

/** Money on the pooled account that named no charge we could credit (the `suspense` ledger account). */
export interface SuspenseItemsTable {
  id: Generated<number>;
  end_to_end_id: string;
  amount: Cents;
  payer: Json<Payer>;
  reason: string;
  charge_reference: string | null;
  network: string;
  provider_transaction_id: string | null;
  received_at: Timestamp;
  assigned_account_id: ColumnType<number | null, number | null | undefined, number | null>;
  assigned_transaction_id: ColumnType<number | null, number | null | undefined, number | null>;
  assigned_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

// Tables of the provider adapter (src/network/provider/) and the suspense items; migration 720.
export interface ProviderNetworkTables {
  provider_notices: ProviderNoticesTable;
  provider_charges: ProviderChargesTable;
  provider_state: ProviderStateTable;
  provider_statement_checks: ProviderStatementChecksTable;
  suspense_items: SuspenseItemsTable;
}
