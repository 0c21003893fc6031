/** @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { toBrlNumber, type Cents } from '../../domain/money.ts';
import { receivedAt, REFUND_DEADLINE_DAYS, refundDeadlinePassed, remainingRefundable } from '../../services/refunds/refund-rules.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { RefundReview, RefundStart, type RefundForm } from '../pages/refund.tsx';

const MAX_REASON = 255;

/** A received PIX the member may still refund (CONFIRMED, within 89 days, something left). */
export function refundableNow(tx: TransactionRow, now: Date): boolean {
  return tx.kind === 'PAYMENT' && tx.status === 'CONFIRMED' && tx.end_to_end_id !== null && remainingRefundable(tx) > 0 && !refundDeadlinePassed(tx, now);
}

const deadlineOf = (tx: TransactionRow) => new Date(receivedAt(tx).getTime() + REFUND_DEADLINE_DAYS * 86_400_000);

/**
 * Refunding a received PIX from its page (issue 30 item 2): amount and reason, a confirmation, then
 * the same refund service as POST /api/pix/refund-in/{id}, with its rules and its refusals. The
 * confirmation fixes an externalId, so Confirm pressed twice refunds once.
 */
export const refundsRoutes: PortalRoutes = (app, s) => {
  const readForm = (body: unknown): RefundForm => ({ amount: field(body, 'amount').trim(), reason: field(body, 'reason').trim() });

  async function received(accountId: number, id: string) {
    const tx = await s.transactions.get(accountId, id);
    if (tx.kind !== 'PAYMENT') throw new DomainError('NOT_FOUND');
    return tx;
  }

  /** The amount in cents, or the refusal to show (the API's own refusal when above the refundable rest). */
  function check(form: RefundForm, tx: TransactionRow, lang: Parameters<typeof refusal>[1], t: (k: 'refundAmountInvalid' | 'refundReasonTooLong') => string): { amount: Cents } | { problem: string; status: number } {
    const amount = centsFromForm(form.amount);
    if (amount === undefined || amount <= 0) return { problem: t('refundAmountInvalid'), status: 400 };
    if (form.reason.length > MAX_REASON) return { problem: t('refundReasonTooLong'), status: 400 };
    const rest = remainingRefundable(tx);
    if (amount > rest) {
      const refused = refusal(new DomainError('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE', { refundableAmount: toBrlNumber(rest), requestedAmount: toBrlNumber(amount) }), lang, 'refundAmount');
      return { problem: refused.message, status: refused.status };
    }
    return { amount };
  }

  app.get('/transactions/:id/refund', async (request, reply) => {
    const accountId = memberAccountId(request);
    const tx = await received(accountId, (request.params as { id: string }).id);
    if (!refundableNow(tx, s.clock.now())) return reply.redirect(`/portal/transactions/${tx.transaction_id}`, 303);
    return render(reply, <RefundStart ctx={request.portal} tx={tx} refundable={remainingRefundable(tx)} deadline={deadlineOf(tx)} />);
  });

  app.post('/transactions/:id/refund/review', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const tx = await received(accountId, (request.params as { id: string }).id);
    const form = readForm(request.body);
    const checked = check(form, tx, ctx.lang, ctx.t);
    if ('problem' in checked) {
      return render(reply, <RefundStart ctx={ctx} tx={tx} refundable={remainingRefundable(tx)} deadline={deadlineOf(tx)} form={form} error={checked.problem} />, checked.status);
    }
    return render(reply, <RefundReview ctx={ctx} tx={tx} amount={checked.amount} form={form} externalId={randomUUID()} />);
  });

  app.post('/transactions/:id/refund', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const tx = await received(accountId, (request.params as { id: string }).id);
    const form = readForm(request.body);
    const externalId = field(request.body, 'externalId');
    const again = (error: string, status: number) =>
      render(reply, <RefundStart ctx={ctx} tx={tx} refundable={remainingRefundable(tx)} deadline={deadlineOf(tx)} form={form} error={error} />, status);
    if (!/^[0-9a-f-]{36}$/.test(externalId)) return again(ctx.t('reviewAgain'), 400);
    const amount = centsFromForm(form.amount);
    if (amount === undefined || amount <= 0) return again(ctx.t('refundAmountInvalid'), 400);
    if (form.reason.length > MAX_REASON) return again(ctx.t('refundReasonTooLong'), 400);
    // Already refunded with this confirmation (Confirm pressed twice): show that refund.
    const sentWith = () => s.transactions.get(accountId, externalId).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    });
    const existing = await sentWith();
    if (existing) return reply.redirect(`/portal/transactions/${existing.transaction_id}`, 303);
    try {
      const { tx: refund } = await s.refunds.create({
        accountId,
        original: { by: 'id', id: tx.transaction_id },
        amount,
        description: form.reason || null,
        refundId: externalId,
        family: 'api',
        natureza: 'ORIGINAL',
        scenario: null,
        // Who refunded, from where: recorded in the refund's own transaction.
        record: (trx, result) =>
          s.audit.record(trx, actorOf(request), { action: 'refund.send', accountId, target: result.tx.transaction_id, after: { amount: result.tx.original_amount, original: tx.transaction_id } }),
      });
      return reply.redirect(`/portal/transactions/${refund.transaction_id}`, 303);
    } catch (error) {
      const refused = refusal(error, ctx.lang, 'refundAmount');
      // A concurrent double submit loses the race on the unique externalId: show the winner.
      const winner = await sentWith();
      if (winner) return reply.redirect(`/portal/transactions/${winner.transaction_id}`, 303);
      const fresh = await received(accountId, tx.transaction_id);
      return render(reply, <RefundStart ctx={ctx} tx={fresh} refundable={remainingRefundable(fresh)} deadline={deadlineOf(fresh)} form={form} error={refused.message} />, refused.status);
    }
  });
};
