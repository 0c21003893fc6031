/** @jsxImportSource hono/jsx */
import { dateTime } from '../format.ts';
import type { PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';

type Attempt = Awaited<ReturnType<PortalReads['recentAttempts']>>[number];

/** The account's latest webhook delivery attempts (any event), with each one's next retry. */
export function DeliveryLog(props: { ctx: PageContext; rows: Attempt[] }) {
  const { ctx, rows } = props;
  const t = ctx.t;
  return (
    <section class="card table-card section" aria-labelledby="attempts">
      <h2 id="attempts">{t('latestAttempts')}</h2>
      {rows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
        <table>
          <thead><tr><th scope="col">{t('date')}</th><th scope="col" class="hide-phone">URL</th><th scope="col">HTTP</th><th scope="col" class="num">{t('duration')}</th><th scope="col">{t('nextRetry')}</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td>{r.transaction_id ? <a href={`/portal/transactions/${r.transaction_id}`}>{dateTime(r.created_at, ctx.lang)}</a> : dateTime(r.created_at, ctx.lang)}</td>
                <td class="hide-phone mono">{r.url}</td>
                <td><span class={`pill ${r.status_code && r.status_code < 300 ? 'pill-ok' : 'pill-bad'}`}>{r.status_code ?? (r.error ? r.error.slice(0, 30) : '—')}</span></td>
                <td class="num">{`${r.duration_ms} ms`}</td>
                <td>{r.delivery_status === 'pending' ? dateTime(r.next_attempt_at, ctx.lang) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
