/** @jsxImportSource hono/jsx */
import type { EventType } from '../../db/schema.ts';
import type { TestAttempt } from '../../services/webhooks/test-delivery.service.ts';
import { dateTime } from '../format.ts';
import { CsrfField, type PageContext } from '../layout.tsx';
import { WEBHOOK_EVENT_TYPES as EVENTS } from '../../domain/closed-lists.ts';

/** The signing secret: reveal it, rotate it (the previous one keeps signing for a while). */
export function WebhookSecretSection(props: { ctx: PageContext; base: string; secret?: string | undefined; rotatedUntil?: Date | null | undefined }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <section class="card section" aria-labelledby="secret">
      <h2 id="secret">{t('signingSecret')}</h2>
      <p class="hint">{t('signingSecretHint')}</p>
      {props.rotatedUntil !== undefined ? (
        <div class="alert alert-info" role="status" id="rotated">
          {props.rotatedUntil
            ? t('secretRotatedUntil', { until: dateTime(props.rotatedUntil, ctx.lang) })
            : t('secretRotated')}
        </div>
      ) : null}
      {props.secret ? (
        <div class="copy-row">
          <input id="webhook-secret" class="mono" readonly value={props.secret} aria-label={t('signingSecret')} />
          <button type="button" class="secondary button" data-copy="webhook-secret">{t('copy')}</button>
        </div>
      ) : (
        <form method="post" action={`${props.base}/webhooks/secret`}>
          <CsrfField ctx={ctx} />
          <button class="secondary button" type="submit">{t('revealSecret')}</button>
        </form>
      )}
      <form method="post" action={`${props.base}/webhooks/secret/rotate`} style="margin-top: 12px" data-confirm={t('rotateConfirm')}>
        <CsrfField ctx={ctx} />
        <p class="hint">{t('rotateHint')}</p>
        <button class="secondary button" type="submit">{t('rotateSecret')}</button>
      </form>
    </section>
  );
}

/** A test event sent once to each URL of the event, with what each URL answered. */
export function WebhookTestSection(props: { ctx: PageContext; base: string; tested?: { event: EventType; attempts: TestAttempt[] } | undefined; testError?: string | undefined }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <section class="card section" aria-labelledby="test-event">
      <h2 id="test-event">{t('sendTestEvent')}</h2>
      <p class="hint">{t('testEventHint')}</p>
      {props.testError ? <div class="alert alert-error" role="alert">{props.testError}</div> : null}
      <form class="stack" method="post" action={`${props.base}/webhooks/test`}>
        <CsrfField ctx={ctx} />
        <div>
          <label for="test-event-type">{t('eventToTest')}</label>
          <select id="test-event-type" name="event">{EVENTS.map((e) => <option value={e} selected={props.tested?.event === e}>{e}</option>)}</select>
        </div>
        <button class="primary" type="submit">{t('sendTestEventButton')}</button>
      </form>
      {props.tested ? (
        <table aria-label={t('testEventResult')} id="test-result">
          <thead><tr><th scope="col">URL</th><th scope="col">HTTP</th><th scope="col" class="num">{t('duration')}</th></tr></thead>
          <tbody>
            {props.tested.attempts.map((a) => (
              <tr>
                <td class="mono">{a.url}</td>
                <td><span class={`pill ${a.delivered ? 'pill-ok' : 'pill-bad'}`}>{a.statusCode ?? (a.error ? a.error.slice(0, 40) : '—')}</span></td>
                <td class="num">{`${a.durationMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
