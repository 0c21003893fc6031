import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Payee, PaymentOrder } from '../../network/pix-network.ts';
import { traceFrom } from '../../observability/trace-context.ts';

/** Where an outgoing debit goes, as the creating service knows it. */
export interface PaymentTarget {
  payee: Payee;
  /** Still not paid at this instant: the network rejects it with PAYMENT_EXPIRED (`POST /dict/pix` `expiration`). */
  expiresAt?: Date | null;
}

/** A payment step job's payload: our row and the order as handed to the network (JSON). */
export interface PaymentStepPayload {
  id: number;
  order: Omit<PaymentOrder, 'orderedAt' | 'expiresAt'> & { orderedAt: string; expiresAt: string | null };
}

/** The trace stored with a debit (its metadata's `trace`: the request that created it), if any. */
export const traceOfPayment = (tx: { metadata?: unknown }) => traceFrom((tx.metadata as { trace?: unknown } | null | undefined)?.trace);

/**
 * The order the network gets for a PENDING, held debit: our public id is its idempotency key; the
 * trace stored with the debit goes with it (every call about it carries that trace).
 */
export function paymentOrderOf(
  tx: Pick<TransactionRow, 'transaction_id' | 'kind' | 'original_amount' | 'description' | 'created_at' | 'scenario'> & { metadata?: unknown },
  target: PaymentTarget,
): PaymentOrder {
  const trace = traceOfPayment(tx);
  return {
    ...(trace ? { trace } : {}),
    reference: tx.transaction_id,
    kind: tx.kind === 'REFUND_IN' ? 'refund' : 'payout',
    amount: tx.original_amount,
    description: tx.description,
    payee: target.payee,
    orderedAt: tx.created_at,
    expiresAt: target.expiresAt ?? null,
    scenario: tx.scenario,
  };
}

export function toStepPayload(id: number, order: PaymentOrder): PaymentStepPayload {
  return { id, order: { ...order, orderedAt: order.orderedAt.toISOString(), expiresAt: order.expiresAt?.toISOString() ?? null } };
}

export function fromStepPayload(payload: PaymentStepPayload): PaymentOrder {
  const { order } = payload;
  return { ...order, orderedAt: new Date(order.orderedAt), expiresAt: order.expiresAt === null ? null : new Date(order.expiresAt) };
}
