import type { Generated } from 'kysely';
import type { Timestamp } from './columns.ts';
import type { Cents } from '../../domain/money.ts';
import type { MedAnalysisResult, MedReason, MedStatus, RefundNature } from '../../domain/closed-lists.ts';

export type { RefundNature };

export interface RefundsTable {
  id: Generated<number>;
  transaction_id: number;
  original_id: number;
  account_id: number;
  refund_id: string;
  rtr_id: string;
  natureza: RefundNature;
  description: string | null;
  created_at: Timestamp;
}

export type { MedAnalysisResult, MedStatus };

export interface MedsTable {
  id: Generated<number>;
  account_id: number;
  end_to_end_id: string;
  original_id: number | null;
  status: MedStatus;
  reason: MedReason;
  cause: string | null;
  description: string | null;
  analysis_result: MedAnalysisResult | null;
  analysis_details: string | null;
  requesting_bank_ispb: string;
  requesting_bank_name: string;
  disputed_amount: Cents;
  blocked_amount: Generated<Cents>;
  refund_transaction_id: number | null;
  /** The network's own id of the infraction (a provider's MED id), when it reported one (migration 720). */
  network_reference: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RateLimitWindowsTable {
  bucket: string;
  window_start: Timestamp;
  hits: number;
}

// Tables owned by the refunds feature (refunds, MED, shared rate limits); migrations 500-599.
export interface RefundTables {
  refunds: RefundsTable;
  meds: MedsTable;
  rate_limit_windows: RateLimitWindowsTable;
}
