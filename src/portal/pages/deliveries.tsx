/** @jsxImportSource hono/jsx */
import { dateTime } from '../format.ts';
import type { MessageKey } from '../i18n.ts';
import { CsrfField, type PageContext } from '../layout.tsx';
import type { portalReads } from '../portal-reads.repo.ts';

type Delivery = Awaited<ReturnType<typeof portalReads.deliveriesOfTransaction>>[number];
type Attempt = Awaited<ReturnType<typeof portalReads.attemptsOfTransaction>>[number];

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
  const en = ctx.lang === 'en';
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
            <button class="secondary button" type="submit">{en ? 'Resend all' : 'Reenviar todas'}</button>
          </form>
        ) : null}
      </div>
      {deliveries.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
        <table>
          <thead>
            <tr>
              <th scope="col">{en ? 'Event' : 'Evento'}</th>
              <th scope="col" class="hide-phone">URL</th>
              <th scope="col">{t('status')}</th>
              <th scope="col" class="hide-phone">{en ? 'Next retry' : 'Próxima tentativa'}</th>
              <th scope="col"><span class="skip">{en ? 'Actions' : 'Ações'}</span></th>
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
                      <button class="secondary button" type="submit" aria-label={`${en ? 'Resend to' : 'Reenviar para'} ${d.url}`}>{en ? 'Resend' : 'Reenviar'}</button>
                    </form>
                  </td>
                </tr>
                <tr class="attempt-log">
                  <td colspan={5}>
                    <details>
                      <summary>{en ? `Attempt log of ${d.url} (${log.length})` : `Tentativas para ${d.url} (${log.length})`}</summary>
                      {d.status === 'pending' ? <p class="hint">{en ? 'Next retry' : 'Próxima tentativa'}: {dateTime(d.next_attempt_at, ctx.lang)}</p> : null}
                      {log.length === 0 ? <p class="hint">{t('noneYet')}</p> : (
                        <table class="attempts">
                          <thead>
                            <tr>
                              <th scope="col">{en ? 'Time' : 'Hora'}</th>
                              <th scope="col">{en ? 'Response' : 'Resposta'}</th>
                              <th scope="col" class="num">{en ? 'Duration' : 'Duração'}</th>
                              <th scope="col">{en ? 'Kind' : 'Tipo'}</th>
                            </tr>
                          </thead>
                          <tbody>
                            {log.map((a) => (
                              <tr>
                                <td>{dateTime(a.created_at, ctx.lang)}</td>
                                <td><AttemptOutcome attempt={a} /></td>
                                <td class="num">{`${a.duration_ms} ms`}</td>
                                <td>{a.kind === 'resend' ? (en ? 'Resend' : 'Reenvio') : `${en ? 'Attempt' : 'Tentativa'} ${a.attempt ?? ''}`}</td>
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
