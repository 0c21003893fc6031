import { cents, type Cents } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';

/** Decisions 4.18: a received PIX can be refunded until 89 days after it was received. */
export const REFUND_DEADLINE_DAYS = 89;
const DAY_MS = 86_400_000;

/** When the PIX was received: its confirmation time (a paid charge), else its creation. */
export const receivedAt = (original: Pick<TransactionRow, 'processed_at' | 'created_at'>): Date =>
  original.processed_at ?? original.created_at;

/** True once `now` is past the deadline; the last instant of the 89th day is still in time. */
export function refundDeadlinePassed(original: Pick<TransactionRow, 'processed_at' | 'created_at'>, now: Date): boolean {
  return now.getTime() > receivedAt(original).getTime() + REFUND_DEADLINE_DAYS * DAY_MS;
}

/** What is still refundable of an original (pending and settled refunds both count). */
export const remainingRefundable = (original: Pick<TransactionRow, 'original_amount' | 'refunded_amount'>): Cents =>
  cents(original.original_amount - original.refunded_amount);

/** The central bank's devolução id: 1 to 35 letters and digits. */
export const DEVOLUCAO_ID_PATTERN = '^[a-zA-Z0-9]{1,35}$';
const DEVOLUCAO_ID = new RegExp(DEVOLUCAO_ID_PATTERN);

/**
 * True when a refund-in's externalId can also be its devolução id on the compatible family (decisions
 * section 7); any other externalId leaves the refund reachable there by the service's own id.
 */
export const isDevolucaoId = (id: string): boolean => DEVOLUCAO_ID.test(id);
