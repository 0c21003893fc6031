import type { ColumnType, Generated } from 'kysely';
import type { Json, Timestamp } from './columns.ts';
import type { Cents } from '../../domain/money.ts';
import type { ChargeKind, ChargeStatus, SplitKeyType } from '../../domain/closed-lists.ts';

export type CobStatus = ChargeStatus;

/** The debtor of a cob as the client sent it (digits only). */
export interface Devedor {
  nome: string;
  cpf?: string;
  cnpj?: string;
}

/** A split recipient as stored: amounts in cents, percentages in parts per million of the gross. */
export interface StoredSplit {
  pixKey: string;
  pixKeyType: SplitKeyType;
  name: string;
  document: string;
  type: 'FIXED' | 'PERCENTAGE';
  /** FIXED: cents; PERCENTAGE: parts per million (10% = 100_000). */
  value: number;
  immediate: boolean;
}

export interface ChargesTable {
  id: Generated<number>;
  transaction_id: number;
  account_id: number;
  kind: ChargeKind;
  txid: string;
  location_id: string;
  br_code: string;
  correlation_id: string;
  amount: Cents;
  receiver_key: string;
  expiration_seconds: number;
  expires_at: Timestamp;
  modalidade_alteracao: Generated<number>;
  devedor: Json<Devedor | null>;
  solicitacao_pagador: string | null;
  info_adicionais: Json<Array<{ nome: string; valor: string }> | null>;
  additional_info: Json<Record<string, string> | null>;
  /** JSON text on insert (defaults to []). */
  splits: ColumnType<StoredSplit[], string | undefined, string>;
  status: Generated<CobStatus>;
  revisao: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChargeSplitPayoutsTable {
  id: Generated<number>;
  charge_id: number;
  position: number;
  amount: Cents;
  payout_transaction_id: number | null;
  created_at: Timestamp;
}

// Tables owned by the charges feature; its migrations live in src/db/migrations (400-499).
export interface ChargeTables {
  charges: ChargesTable;
  charge_split_payouts: ChargeSplitPayoutsTable;
}
