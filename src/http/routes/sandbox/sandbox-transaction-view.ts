import { Type, type Static } from '@sinclair/typebox';
import { toBrlNumber } from '../../../domain/money.ts';
import type { TransactionRow } from '../../../db/repos/transactions.repo.ts';
import { movementOf, publicCounterpart } from '../../../webhooks/payloads/transaction-event.ts';
import { Brl } from '../../schemas/common.ts';

export const SandboxTransaction = Type.Object({
  id: Type.Number(),
  transactionId: Type.String({ format: 'uuid-v4' }),
  externalId: Type.Union([Type.String(), Type.Null()]),
  type: Type.String(),
  status: Type.String(),
  movementType: Type.String(),
  originalAmount: Brl(),
  feeAmount: Brl(),
  finalAmount: Brl(),
  endToEndId: Type.Union([Type.String(), Type.Null()]),
  counterpart: Type.Any(),
  createdAt: Type.String(),
  processedAt: Type.Union([Type.String(), Type.Null()]),
});

/** What sandbox routes answer about the transaction they made. */
export const sandboxTransactionView = (tx: TransactionRow): Static<typeof SandboxTransaction> => ({
  id: tx.id,
  transactionId: tx.transaction_id,
  externalId: tx.external_id,
  type: tx.kind,
  status: tx.status,
  movementType: movementOf(tx.kind),
  originalAmount: toBrlNumber(tx.original_amount),
  feeAmount: toBrlNumber(tx.fee_amount),
  finalAmount: toBrlNumber(tx.final_amount),
  endToEndId: tx.end_to_end_id,
  counterpart: publicCounterpart(tx.counterpart as never),
  createdAt: tx.created_at.toISOString(),
  processedAt: tx.processed_at?.toISOString() ?? null,
});
