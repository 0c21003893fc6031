import type { Timestamp } from './columns.ts';
import type { Cents } from '../../domain/money.ts';
import type { DictKeyType } from '../../domain/closed-lists.ts';

export interface SandboxDictKeysTable {
  key: string;
  key_type: DictKeyType;
  name: string;
  document: string;
  ispb: string;
  branch: string | null;
  account: string | null;
  created_at: Timestamp;
}

export interface PayoutLimitUsageTable {
  account_id: number;
  window_key: string;
  total: Cents;
}

export interface IdempotencyKeysTable {
  scope: string;
  account_id: number;
  key: string;
  body_hash: string;
  status_code: number | null;
  response: unknown;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// Tables owned by the payouts feature; migrations 300-399.
export interface PayoutTables {
  sandbox_dict_keys: SandboxDictKeysTable;
  payout_limit_usage: PayoutLimitUsageTable;
  idempotency_keys: IdempotencyKeysTable;
}
