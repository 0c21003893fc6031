/** @jsxImportSource hono/jsx */
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { publicCounterpart } from '../../webhooks/payloads/transaction-event.ts';
import { brl, dateTime } from '../format.ts';
import { medStatusText, Page, StatusPill, type PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';
import { TransactionDeliveries } from './deliveries.tsx';
import { SignedAmount } from './transactions.tsx';

type Rows<K extends keyof PortalReads> = Awaited<ReturnType<PortalReads[K]>>;

/** One transaction: its amounts, its counterpart, its refunds, MEDs and webhook deliveries. */
export function TransactionPage(props: {
  ctx: PageContext;
  tx: TransactionRow;
  refunds: Rows<'refundsOf'>;
  meds: Rows<'medsOf'>;
  deliveries: Rows<'deliveriesOfTransaction'>;
  attempts: Rows<'attemptsOfTransaction'>;
  /** A received PIX that can still be refunded shows "Refund". */
  refundable?: boolean;
}) {
  const { ctx, tx } = props;
  const t = ctx.t;
  const cp = publicCounterpart(tx.counterpart);
  // A payout still on its way may not know its receiver yet (a provider tells it when it settles).
  const unknown = tx.kind === 'WITHDRAW' && tx.status === 'PENDING' ? <em class="muted">{t('notKnownUntilSettled')}</em> : '—';
  return (
    <Page ctx={ctx} title={t('transaction')} active="/portal/transactions">
      <div class="page-head">
        <div>
          <h1>
            {t(tx.kind)} <SignedAmount tx={tx} />
          </h1>
          <p class="lead mono">{tx.transaction_id}</p>
        </div>
        <div style="display: flex; gap: 10px; align-items: center; flex-wrap: wrap">
          <StatusPill ctx={ctx} status={tx.status} />
          {props.refundable ? <a class="button" href={`/portal/transactions/${tx.transaction_id}/refund`}>{t('refund')}</a> : null}
        </div>
      </div>
      <div class="grid-2 section">
        <section class="card" aria-labelledby="amounts">
          <h2 id="amounts">{t('amount')}</h2>
          <dl class="details">
            <dt>{t('amount')}</dt>
            <dd>{brl(tx.original_amount)}</dd>
            <dt>{t('fee')}</dt>
            <dd>{brl(tx.fee_amount)}</dd>
            <dt>{t('net')}</dt>
            <dd>{brl(tx.final_amount)}</dd>
            <dt>{t('status')}</dt>
            <dd>{t(tx.status)}{tx.error_message ? ` — ${tx.error_message}` : ''}</dd>
            <dt>{t('endToEndId')}</dt>
            <dd class="mono">{tx.end_to_end_id ?? '—'}</dd>
            <dt>{t('createdAt')}</dt>
            <dd>{dateTime(tx.created_at, ctx.lang)}</dd>
            <dt>{t('processedAt')}</dt>
            <dd>{dateTime(tx.processed_at, ctx.lang)}</dd>
            {tx.description ? (
              <>
                <dt>{t('description')}</dt>
                <dd>{tx.description}</dd>
              </>
            ) : null}
          </dl>
        </section>
        <section class="card" aria-labelledby="counterpart">
          <h2 id="counterpart">{t('counterpart')}</h2>
          <dl class="details">
            <dt>{t('name')}</dt>
            <dd>{cp.name ?? unknown}</dd>
            <dt>{t('document')}</dt>
            <dd class="mono">{cp.document ?? '—'}</dd>
            <dt>{t('bank')}</dt>
            <dd>{[cp.bank.bankName, cp.bank.bankISPB].filter(Boolean).join(' · ') || unknown}</dd>
            <dt>{t('branchAccount')}</dt>
            <dd>{[cp.bank.accountBranch, cp.bank.accountNumber].filter(Boolean).join(' / ') || '—'}</dd>
          </dl>
        </section>
      </div>
      <section class="card table-card section" aria-labelledby="refunds">
        <h2 id="refunds">{t('refunds')}</h2>
        {props.refunds.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('type')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
            <tbody>
              {props.refunds.map((r) => (
                <tr>
                  <td><a href={`/portal/transactions/${r.transaction_id}`}>{dateTime(r.created_at, ctx.lang)}</a></td>
                  <td>{t(r.kind)}</td>
                  <td><StatusPill ctx={ctx} status={r.status} /></td>
                  <td class="num">{brl(r.original_amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card table-card section" aria-labelledby="meds">
        <h2 id="meds">{t('med')}</h2>
        {props.meds.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
            <tbody>
              {props.meds.map((m) => (
                <tr><td>{dateTime(m.created_at, ctx.lang)}</td><td>{medStatusText(t, m.status, m.analysis_result)}</td><td class="num">{brl(m.disputed_amount)}</td></tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <TransactionDeliveries ctx={ctx} transactionId={tx.transaction_id} deliveries={props.deliveries} attempts={props.attempts} />
    </Page>
  );
}
