import { WEBHOOK_EVENT_TYPES, type PublicKeyType, type TransactionEventName, type TransactionStatus } from '../../domain/closed-lists.ts';
import type { MedEventName } from '../../domain/closed-lists.ts';
/**
 * The provider's API as this adapter uses it: request and answer bodies, in the provider's words
 * (BRL numbers, its field names). The provider is any service implementing the interface spec
 * (`../shared/spec/interface-spec.md`); these are its DTOs of the public OpenAPI document.
 */

export type ProviderKeyType = PublicKeyType;

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
}
export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
}

export interface CashOutRequest {
  value: number;
  externalId: string;
  description?: string;
  details: { key: string; keyType: ProviderKeyType; name: string; document: string };
}

export interface CashOutQrCodeRequest {
  value: number;
  qrCode: string;
  externalId: string;
  description?: string;
  name?: string;
  document?: string;
}

export interface RefundInRequest {
  refundValue: number;
  reason?: string;
  /** 1-35 letters and digits (the compatible family's devolucao id). */
  externalId: string;
}

export interface CashInRequest {
  transaction: { value: number; description: string; externalId: string; expirationTime: number; generateQrCode: false };
  payer: { fullName: string; document: string };
  additionalInfo?: Record<string, string>;
}
export interface CashInAnswer {
  transactionId: string;
  externalId: string;
  status: string;
  pixCode: string;
}

/** `GET /api/pix/transaction/{id}` (TransactionPollOutputDto). */
export interface TransactionPoll {
  id: string;
  externalId: string | null;
  type: 'PAYMENT' | 'REFUND_IN' | 'REFUND_OUT' | 'WITHDRAW' | 'TRANSFER';
  status: TransactionStatus;
  originalAmount: number;
  e2eId: string | null;
  counterpartName: string | null;
  counterpartDocument: string | null;
  counterpartAccountIspb: string | null;
  counterpartAccountBankName: string | null;
  counterpartAccountBankCode: string | null;
}

/** One item of `GET /api/transactions` (TransactionSearchOutputDto). */
export interface TransactionSearchItem {
  transactionId: string;
  externalId: string | null;
  status: string;
  operationType: string;
  endToEndId: string | null;
}
export interface TransactionSearch {
  data: TransactionSearchItem[];
}

/** `GET /api/balance` (GetBalanceOutputDto). */
export interface BalanceAnswer {
  grossBalance: number;
  blockedBalance: number;
  netBalance: number;
  consultedAt: string;
}

/** `POST /api/webhooks` (SetupWebhookOutputDto): `success: false` while the provider keeps it disabled. */
export interface WebhookSetupAnswer {
  success: boolean;
  message: string;
}

/** The error envelope (authentication, cash-out, cash-in). */
export interface ProviderErrorBody {
  statusCode?: number;
  code?: string;
  errorCode?: string;
  message?: string | string[];
  details?: Record<string, unknown>;
}

/** The counterpart of a notice (documents masked). */
export interface NoticeCounterpart {
  name: string | null;
  document: string | null;
  bank: { bankISPB: string | null; bankName: string | null; bankCode: string | null } | null;
}

/** A transaction notice: `CashIn`, `CashOut`, `CashInReversal`, `CashOutReversal` (decisions section 5). */
export interface TransactionNotice {
  event: TransactionEventName;
  status: TransactionStatus;
  transactionId: string;
  externalId: string | null;
  endToEndId: string | null;
  originalAmount: number;
  errorCode: string | null;
  errorMessage: string | null;
  counterpart: NoticeCounterpart | null;
  parentTransaction?: { transactionId: string; externalId: string | null; endToEndId: string | null };
}

/** A MED notice: `MedCreated`, `MedAccepted`, `MedRejected` with the provider's MED object. */
export interface MedNotice {
  event: MedEventName;
  med: {
    id: number | string;
    endToEnd: string;
    status: string;
    cause: string | null;
    description: string | null;
    analysisResult: string | null;
    analysisDetails: string | null;
    requestingBank: { ispb: string; name: string } | null;
    transaction: { amount: number } | null;
  };
}

/** The provider's event names a webhook is registered for (all seven). */
export const PROVIDER_EVENT_TYPES = WEBHOOK_EVENT_TYPES;
