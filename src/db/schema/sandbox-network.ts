import type { Json, Timestamp } from './columns.ts';
import type { Cents } from '../../domain/money.ts';

/** What the simulated network was asked to pay (migration 700): one row per reference. */
export interface SandboxNetworkPaymentsTable {
  reference: string;
  kind: string;
  amount: Cents;
  payee: Json<Record<string, unknown>>;
  scenario: string | null;
  ordered_at: Timestamp;
  expires_at: Timestamp | null;
  submitted_at: Timestamp;
  end_to_end_id: string;
}

/** The charges registered with the simulated network, and the scenario their payer follows. */
export interface SandboxNetworkChargesTable {
  reference: string;
  amount: Cents;
  scenario: string | null;
  registered_at: Timestamp;
}

// Tables of the sandbox simulator (src/network/sandbox/); migration 700.
export interface SandboxNetworkTables {
  sandbox_network_payments: SandboxNetworkPaymentsTable;
  sandbox_network_charges: SandboxNetworkChargesTable;
}
