/** @jsxImportSource hono/jsx */
import { dateTime } from '../format.ts';
import type { MessageKey } from '../i18n.ts';
import { CsrfField, type PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';

type Delivery = Awaited<ReturnType<PortalReads['deliveriesOfTransaction']>>[number];
type Attempt = Awaited<ReturnType<PortalReads['attemptsOfTransaction']>>[number];

const STATUS_PILL: Record<string, string> = { delivered: 'pill-ok', failed: 'pill-bad' };

/** What one attempt got back: the HTTP status, or the network error when there was no answer. */
function AttemptOutcome(props: { attempt: Attempt }) {
  const { status_code: code, error } = props.attempt;
  const ok = code !== null && code >= 200 && code < 300;
  return <span class={`pill ${ok ? 'pill-ok' : 'pill-bad'}`}>{code ?? (error ? error.slice(0, 40) : '—')}</span>;
}

/**
 * A transaction's webhook deliveries (one per registered URL of each event), each with its attempt
 * log (time, response status, duration) and its next retry; resend one URL or all of them.
 */
export function TransactionDeliveries(props: { ctx: PageContext; transactionId: string; deliveries: Delivery[]; attempts: Attempt[] }) {
  const { ctx, deliveries } = props;
  const t = ctx.t;
  const resendAction = `/portal/webhooks/resend-transaction/${props.transactionId}`;
  // A resend is logged without a delivery: it belongs to the delivery of the same event and webhook.
  const attemptsOf = (d: Delivery) => props.attempts.filter((a) => a.delivery_id === d.id || (a.delivery_id === null && a.event_id === d.event_id && a.webhook_id === d.webhook_id));
  return (
    <section class="card table-card section" aria-labelledby="deliveries">
      <div class="page-head" style="padding: 16px 20px 0; margin: 0">
        <h2 id="deliveries">{t('deliveries')}</h2>
        {deliveries.length > 0 ? (
          <form method="post" action={resendAction}>
            <CsrfField ctx={ctx} />
            <button class="secondary button" type="submit">{t('resendAll')}</button>
          </form>
        ) : null}
      </div>
      {deliveries.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('event')}</th>
              <th scope="col" class="hide-phone">URL</th>
              <th scope="col">{t('status')}</th>
              <th scope="col" class="hide-phone">{t('nextRetry')}</th>
              <th scope="col"><span class="skip">{t('actions')}</span></th>
            </tr>
          </thead>
          {deliveries.map((d) => {
            const log = attemptsOf(d);
            return (
              <tbody class="delivery">
                <tr>
                  <td class="mono">{d.type}</td>
                  <td class="hide-phone mono">{d.url}</td>
                  <td><span class={`pill ${STATUS_PILL[d.status] ?? 'pill-warn'}`}>{t(`DELIVERY_${d.status}` as MessageKey)}{d.last_status_code ? ` · ${d.last_status_code}` : ''}</span></td>
                  <td class="hide-phone">{d.status === 'pending' ? dateTime(d.next_attempt_at, ctx.lang) : '—'}</td>
                  <td>
                    <form method="post" action={resendAction}>
                      <CsrfField ctx={ctx} />
                      <input type="hidden" name="webhook" value={String(d.webhook_id)} />
                      <button class="secondary button" type="submit" aria-label={t('resendTo', { url: d.url })}>{t('resend')}</button>
                    </form>
                  </td>
                </tr>
                <tr class="attempt-log">
                  <td colspan={5}>
                    <details>
                      <summary>{t('attemptLogOf', { url: d.url, count: log.length })}</summary>
                      {d.status === 'pending' ? <p class="hint">{t('nextRetry')}: {dateTime(d.next_attempt_at, ctx.lang)}</p> : null}
                      {log.length === 0 ? <p class="hint">{t('noneYet')}</p> : (
                        <table class="attempts">
                          <thead>
                            <tr>
                              <th scope="col">{t('time')}</th>
                              <th scope="col">{t('response')}</th>
                              <th scope="col" class="num">{t('duration')}</th>
                              <th scope="col">{t('kind')}</th>
                            </tr>
                          </thead>
                          <tbody>
                            {log.map((a) => (
                              <tr>
                                <td>{dateTime(a.created_at, ctx.lang)}</td>
                                <td><AttemptOutcome attempt={a} /></td>
                                <td class="num">{`${a.duration_ms} ms`}</td>
                                <td>{a.kind === 'resend' ? t('resendAttempt') : t('attemptNumber', { n: a.attempt ?? '' })}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      )}
                    </details>
                  </td>
                </tr>
              </tbody>
            );
          })}
        </table>
      )}
    </section>
  );
}
