/** @jsxImportSource hono/jsx */
import { brl, dateTime } from '../format.ts';
import type { TransactionStatus } from '../../domain/closed-lists.ts';
import { CsrfField, Page, StatusPill, type PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';

type Charge = NonNullable<Awaited<ReturnType<PortalReads['chargeOf']>>>;

/** What became of a charge: still payable, paid, expired or cancelled. */
export type ChargeOutcome = 'open' | 'paid' | 'expired' | 'cancelled';

export function chargeOutcome(charge: Pick<Charge, 'charge_status' | 'status' | 'expires_at'>, now: Date): ChargeOutcome {
  if (charge.charge_status === 'CONCLUIDA' || charge.status === 'CONFIRMED') return 'paid';
  if (charge.charge_status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return 'cancelled';
  // Past its expiry the charge is expired even before the expiry job has run: nobody can pay it.
  if (charge.charge_status === 'REMOVIDA_PELO_PSP' || charge.status === 'ERROR' || charge.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** The charge's status; polls itself every 2 s while it waits for its payer. */
export function ChargeStatus(props: { ctx: PageContext; id: string; status: TransactionStatus }) {
  return props.status === 'PENDING' ? (
    <span id="charge-status" role="status" hx-get={`/portal/charges/${props.id}/status`} hx-trigger="every 2s" hx-swap="outerHTML">
      <StatusPill ctx={props.ctx} status={props.status} />
    </span>
  ) : (
    <span id="charge-status" role="status">
      <StatusPill ctx={props.ctx} status={props.status} />
    </span>
  );
}

/** The new-charge form beside the recent charges. */
export function ChargesPage(props: { ctx: PageContext; charges: Charge[]; error?: string; form?: Record<string, string> }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('charges')} active="/portal/charges">
      <h1>{t('charges')}</h1>
      <p class="lead">{t('chargesLead')}</p>
      <div class="grid-2 section">
        <section class="card" aria-labelledby="new-charge">
          <h2 id="new-charge">{t('newCharge')}</h2>
          {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
          <form class="stack" method="post" action="/portal/charges">
            <CsrfField ctx={ctx} />
            <div>
              <label for="value">{t('chargeValue')}</label>
              <input id="value" name="value" inputmode="decimal" required placeholder="1.234,56" value={props.form?.value ?? ''} />
            </div>
            <div>
              <label for="description">{t('description')}</label>
              <input id="description" name="description" maxlength={140} value={props.form?.description ?? ''} />
            </div>
            <div>
              <label for="expiration">{t('expiresInMinutes')}</label>
              <input id="expiration" name="expiration" type="number" min={1} max={43200} value={props.form?.expiration ?? '60'} required />
            </div>
            <button class="primary" type="submit">{t('createCharge')}</button>
          </form>
        </section>
        <section class="card table-card" aria-labelledby="recent-charges">
          <h2 id="recent-charges">{t('recentCharges')}</h2>
          {props.charges.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('createdAt')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
              <tbody>
                {props.charges.map((ch) => (
                  <tr>
                    <td><a href={`/portal/charges/${ch.transaction_id}`}>{dateTime(ch.created_at, ctx.lang)}</a></td>
                    <td><StatusPill ctx={ctx} status={ch.status} /></td>
                    <td class="num">{brl(ch.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </Page>
  );
}

/** One charge: its QR code, its copy-and-paste code, its details and live status. */
export function ChargePage(props: { ctx: PageContext; charge: Charge; outcome: ChargeOutcome; qr: string | undefined }) {
  const { ctx, charge } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('charges')} active="/portal/charges">
      <div class="page-head">
        <div>
          <h1>{t('charge')} {brl(charge.amount)}</h1>
          <p class="lead">{charge.description ?? ''}</p>
        </div>
        <ChargeStatus ctx={ctx} id={charge.transaction_id} status={charge.status} />
      </div>
      <div class="grid-2">
        {props.outcome === 'open' && props.qr ? (
          <section class="card" aria-labelledby="qr">
            <h2 id="qr">{t('qrCode')}</h2>
            <img class="qr" src={props.qr} alt={t('qrCodeAlt', { amount: brl(charge.amount) })} />
            <label for="brcode" style="margin-top: 14px">{t('copyAndPaste')}</label>
            <div class="copy-row">
              <input id="brcode" class="mono" readonly value={charge.br_code} />
              <button type="button" class="secondary button" data-copy="brcode" data-copied={t('copied')}>{t('copy')}</button>
            </div>
          </section>
        ) : (
          <section class="card" aria-labelledby="outcome">
            <h2 id="outcome">{t(props.outcome === 'paid' ? 'chargeOutcomePaid' : props.outcome === 'cancelled' ? 'chargeCancelled' : 'chargeExpired')}</h2>
            <p id="charge-outcome">
              {props.outcome === 'paid'
                ? t('chargePaidLead', { when: dateTime(charge.processed_at ?? charge.updated_at, ctx.lang) })
                : props.outcome === 'cancelled'
                  ? t('chargeCancelledLead', { when: dateTime(charge.updated_at, ctx.lang) })
                  : t('chargeExpiredLead', { when: dateTime(charge.expires_at, ctx.lang) })}
            </p>
          </section>
        )}
        <section class="card" aria-labelledby="charge-details">
          <h2 id="charge-details">{t('details')}</h2>
          <dl class="details">
            <dt>{t('amount')}</dt><dd>{brl(charge.amount)}</dd>
            <dt>{t('createdAt')}</dt><dd>{dateTime(charge.created_at, ctx.lang)}</dd>
            <dt>{t('expires')}</dt><dd>{dateTime(charge.expires_at, ctx.lang)}</dd>
            <dt>txid</dt><dd class="mono">{charge.txid}</dd>
            <dt>{t('transaction')}</dt><dd><a href={`/portal/transactions/${charge.transaction_id}`} class="mono">{charge.transaction_id}</a></dd>
          </dl>
        </section>
      </div>
    </Page>
  );
}
