import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import type { NetworkSink, Payer } from '../pix-network.ts';
import type { ChargeBook } from './charge-book.ts';
import { ADAPTER_REJECTIONS, centsOf, payeeOf, payerOf, referenceOfRefundExternalId } from './mapping.ts';
import type { MedNotice, TransactionNotice } from './types.ts';

/** A registered charge our side still has not stored after this long was never stored (its creation failed). */
export const NEVER_STORED_AFTER_MS = 10 * 60_000;

/** A charge the provider says was paid, as a notice or the charge check found it. */
export interface ChargePayment {
  reference: string;
  amount: Cents;
  payer: Payer;
  endToEndId: string;
  providerTransactionId: string | null;
}

/**
 * Credits a paid charge to its customer, through the sink; money the charge can no longer take
 * (expired or ended meanwhile, another amount than a fixed charge's) is real money on the pooled
 * account: it goes to suspense, never lost and never credited twice (both are idempotent by
 * end-to-end id). A charge we registered but have not stored yet is asked again later (the caller
 * throws and retries), unless it was registered so long ago that it will never be stored.
 */
export async function deliverChargePayment(sink: NetworkSink, book: ChargeBook, payment: ChargePayment, now: Date): Promise<string> {
  const unrouted = async (reason: string) => {
    await sink.onUnroutedPix({ amount: payment.amount, payer: payment.payer, endToEndId: payment.endToEndId, providerTransactionId: payment.providerTransactionId, reason, chargeReference: payment.reference });
    await book.finish(payment.reference, now);
    return `held in suspense (${reason})`;
  };
  try {
    await sink.onChargePaid({ charge: { reference: payment.reference }, amount: payment.amount, payer: payment.payer, endToEndId: payment.endToEndId });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'CHARGE_NOT_PAYABLE' || error.code === 'CHARGE_AMOUNT_MISMATCH') return unrouted(error.code.toLowerCase());
    if (error.code === 'NOT_FOUND') {
      const registered = await book.get(payment.reference);
      if (!registered || now.getTime() - registered.registered_at.getTime() > NEVER_STORED_AFTER_MS) return unrouted('charge_never_stored');
    }
    throw error;
  }
  await book.finish(payment.reference, now);
  return 'charge paid';
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * What one verified notice does to our books: the provider's event names mapped onto our
 * transactions (decisions section 5 shapes). Every branch is idempotent, so a notice handled again
 * after a failure changes nothing more. Answers a line for operators (provider_notices.outcome).
 */
export async function routeNotice(payload: Record<string, unknown>, deps: { sink: NetworkSink; book: ChargeBook; now: Date }): Promise<string> {
  const { sink, book, now } = deps;
  const event = str(payload.event);
  switch (event) {
    case 'CashIn': {
      const n = payload as unknown as TransactionNotice;
      const reference = str(n.externalId);
      const ours = reference ? await book.get(reference) : undefined;
      if (n.status === 'ERROR') {
        if (reference && ours) await book.finish(reference, now);
        return ours ? 'charge ended unpaid at the provider' : 'ignored: a failed cash-in that is not a charge of ours';
      }
      if (n.status !== 'CONFIRMED') return `ignored: CashIn ${String(n.status)}`;
      const endToEndId = str(n.endToEndId);
      if (!endToEndId) throw new Error(`CashIn ${String(n.transactionId)} is CONFIRMED without an endToEndId`);
      const amount = centsOf(n.originalAmount, 'originalAmount');
      const payer = payerOf(n.counterpart);
      if (reference && ours) {
        return deliverChargePayment(sink, book, { reference, amount, payer, endToEndId, providerTransactionId: str(n.transactionId) }, now);
      }
      // PIX sent straight to the pooled account's key (or naming a charge that is not ours).
      await sink.onUnroutedPix({ amount, payer, endToEndId, providerTransactionId: str(n.transactionId), reason: 'no_charge', chargeReference: reference });
      return 'held in suspense (no_charge)';
    }
    case 'CashOut':
    case 'CashInReversal': {
      const n = payload as unknown as TransactionNotice;
      const reference = event === 'CashOut' ? str(n.externalId) : referenceOfRefundExternalId(n.externalId);
      if (!reference) return `ignored: ${event} with no reference of ours`;
      if (n.status === 'CONFIRMED') {
        const endToEndId = str(n.endToEndId);
        if (!endToEndId) throw new Error(`${event} ${reference} is CONFIRMED without an endToEndId`);
        // A payout's notice says who received it (the provider has no key look-up before it).
        const payee = event === 'CashOut' ? payeeOf(n.counterpart) : undefined;
        const done = await sink.onPaymentOutcome(reference, { status: 'settled', endToEndId, ...(payee ? { payee } : {}) });
        return done ? 'payment settled' : 'no change (already finished, or not a payment of ours)';
      }
      if (n.status === 'ERROR') {
        const done = await sink.onPaymentOutcome(reference, {
          status: 'rejected',
          errorCode: str(n.errorCode) ?? ADAPTER_REJECTIONS.failedWithoutReason.errorCode,
          errorMessage: str(n.errorMessage) ?? ADAPTER_REJECTIONS.failedWithoutReason.errorMessage,
        });
        return done ? 'payment rejected' : 'no change (already finished, or not a payment of ours)';
      }
      return `ignored: ${event} ${String(n.status)}`;
    }
    case 'CashOutReversal': {
      const n = payload as unknown as TransactionNotice;
      const reference = str(n.parentTransaction?.externalId);
      if (!reference) return 'ignored: CashOutReversal of a payout that is not ours';
      if (n.status !== 'CONFIRMED') return `ignored: CashOutReversal ${String(n.status)}`;
      const returned = await sink.onPayoutReturned({ payout: { reference }, amount: centsOf(n.originalAmount, 'originalAmount'), endToEndId: str(n.endToEndId) });
      return returned ? 'payout returned' : 'no change (not a payout of ours)';
    }
    case 'MedCreated': {
      const { med } = payload as unknown as MedNotice;
      if (!med || med.id === undefined || !str(med.endToEnd)) throw new Error('MedCreated without med.id or med.endToEnd');
      const opened = await sink.onInfractionReported({
        reference: String(med.id),
        endToEndId: med.endToEnd,
        cause: str(med.cause),
        description: str(med.description),
        ...(med.requestingBank?.ispb ? { requestingBank: { ispb: med.requestingBank.ispb, name: med.requestingBank.name } } : {}),
      });
      return opened ? 'MED opened' : 'no change (no account of ours received that PIX)';
    }
    case 'MedAccepted':
    case 'MedRejected': {
      const { med } = payload as unknown as MedNotice;
      if (!med || med.id === undefined) throw new Error(`${event} without med.id`);
      const moved = await sink.onInfractionUpdated({
        reference: String(med.id),
        to: 'ANALYZED',
        analysisResult: event === 'MedAccepted' ? 'APPROVED' : 'REJECTED',
        ...(str(med.analysisDetails) ? { analysisDetails: med.analysisDetails! } : {}),
      });
      if (!moved) return 'no change (a MED we never opened, or already moved)';
      return event === 'MedAccepted' ? 'MED approved' : 'MED rejected';
    }
    default:
      return `ignored: unknown event ${JSON.stringify(event ?? payload.type ?? null)}`;
  }
}
