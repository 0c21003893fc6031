/** @jsxImportSource hono/jsx */
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { movementOf, publicCounterpart } from '../../webhooks/payloads/transaction-event.ts';
import { brl, dateTime } from '../format.ts';
import { StatusPill, type PageContext } from '../layout.tsx';

/** A movement's signed amount: credits in green with +, debits with −. */
export function SignedAmount(props: { tx: TransactionRow }) {
  const credit = movementOf(props.tx.kind) === 'CREDIT';
  return <span class={credit ? 'credit' : ''}>{`${credit ? '+' : '−'} ${brl(props.tx.original_amount)}`}</span>;
}

export function TransactionTable(props: { ctx: PageContext; rows: TransactionRow[] }) {
  const t = props.ctx.t;
  if (props.rows.length === 0) return <p class="empty">{t('noTransactions')}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('date')}</th>
          {/* On a phone the amount's sign tells the direction; the type stays on the detail page. */}
          <th scope="col" class="hide-phone">{t('type')}</th>
          <th scope="col" class="hide-phone">{t('counterpart')}</th>
          <th scope="col">{t('status')}</th>
          <th scope="col" class="num">{t('amount')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((tx) => (
          <tr>
            <td>
              <a href={`/portal/transactions/${tx.transaction_id}`}>{dateTime(tx.created_at, props.ctx.lang)}</a>
            </td>
            <td class="hide-phone">{t(tx.kind)}</td>
            <td class="hide-phone">{publicCounterpart(tx.counterpart).name ?? '—'}</td>
            <td>
              <StatusPill ctx={props.ctx} status={tx.status} />
            </td>
            <td class="num">
              <SignedAmount tx={tx} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
