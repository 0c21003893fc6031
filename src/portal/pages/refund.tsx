/** @jsxImportSource hono/jsx */
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Cents } from '../../domain/money.ts';
import { publicCounterpart } from '../../webhooks/payloads/transaction-event.ts';
import { brl, dateTime } from '../format.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';

/** What the member typed on the refund form. */
export interface RefundForm {
  amount: string;
  reason: string;
}

/** The refund's first step: how much (up to what is still refundable) and why. */
export function RefundStart(props: { ctx: PageContext; tx: TransactionRow; refundable: Cents; deadline: Date; form?: RefundForm; error?: string }) {
  const { ctx, tx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('refundPix')} active="/portal/transactions">
      <h1>{t('refundPix')}</h1>
      <p class="lead">{t('refundLead', { amount: brl(props.refundable), deadline: dateTime(props.deadline, ctx.lang) })}</p>
      <section class="card" style="max-width: 560px" aria-label={t('refundPix')}>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <dl class="details">
          <dt>{t('from')}</dt>
          <dd>{publicCounterpart(tx.counterpart).name ?? '—'}</dd>
          <dt>{t('amount')}</dt>
          <dd>{brl(tx.original_amount)}</dd>
          <dt>{t('refundable')}</dt>
          <dd id="refundable">{brl(props.refundable)}</dd>
        </dl>
        <form class="stack" method="post" action={`/portal/transactions/${tx.transaction_id}/refund/review`} style="margin-top: 18px">
          <CsrfField ctx={ctx} />
          <div>
            <label for="refund-amount">{t('refundAmount')}</label>
            <input id="refund-amount" name="amount" inputmode="decimal" required placeholder="1.234,56" value={props.form?.amount ?? brl(props.refundable).replace('R$ ', '')} />
          </div>
          <div>
            <label for="refund-reason">{t('refundReason')}</label>
            <input id="refund-reason" name="reason" maxlength={255} value={props.form?.reason ?? ''} />
          </div>
          <button class="primary" type="submit">{t('review')}</button>
          <a href={`/portal/transactions/${tx.transaction_id}`}>{t('cancel')}</a>
        </form>
      </section>
    </Page>
  );
}

/** The confirmation: nothing moves before the member confirms this amount to this payer. */
export function RefundReview(props: { ctx: PageContext; tx: TransactionRow; amount: Cents; form: RefundForm; externalId: string; error?: string }) {
  const { ctx, tx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('refundPix')} active="/portal/transactions">
      <h1>{t('confirmRefund')}</h1>
      <section class="card" style="max-width: 560px" aria-labelledby="refund-confirm">
        <h2 id="refund-confirm" class="confirm-amount">{brl(props.amount)}</h2>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <dl class="details">
          <dt>{t('payTo')}</dt>
          <dd id="refund-to">{publicCounterpart(tx.counterpart).name ?? '—'}</dd>
          <dt>{t('refundOf')}</dt>
          <dd><a class="mono" href={`/portal/transactions/${tx.transaction_id}`}>{brl(tx.original_amount)}</a></dd>
          {props.form.reason ? (<><dt>{t('refundReason')}</dt><dd>{props.form.reason}</dd></>) : null}
        </dl>
        <form class="stack" method="post" action={`/portal/transactions/${tx.transaction_id}/refund`} style="margin-top: 18px">
          <CsrfField ctx={ctx} />
          <input type="hidden" name="amount" value={props.form.amount} />
          <input type="hidden" name="reason" value={props.form.reason} />
          <input type="hidden" name="externalId" value={props.externalId} />
          <button class="primary" type="submit">{t('refundAmountButton', { amount: brl(props.amount) })}</button>
          <a href={`/portal/transactions/${tx.transaction_id}`}>{t('cancel')}</a>
        </form>
      </section>
    </Page>
  );
}
