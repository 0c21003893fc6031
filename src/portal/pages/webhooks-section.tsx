/** @jsxImportSource hono/jsx */
import type { EventType } from '../../db/schema.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/closed-lists.ts';
import type { WebhookHeader } from '../../db/schema/webhooks.ts';
import type { TestAttempt } from '../../services/webhooks/test-delivery.service.ts';
import { CsrfField, DangerAction, type PageContext } from '../layout.tsx';
import { WebhookSecretSection, WebhookTestSection } from './webhook-secret.tsx';

/** The portal's event lists are the closed list itself. */
export const EVENTS: readonly EventType[] = WEBHOOK_EVENT_TYPES;

type WebhookRow = { id: number; event_type: string; url: string; headers: unknown };

/**
 * The account's webhook settings (member dashboard and admin panel alike): add and remove URLs, the
 * signing secret, test events. `base` is where the forms post.
 */
export function WebhooksSection(props: {
  ctx: PageContext;
  base: string;
  secret?: string;
  error?: string;
  hooks: WebhookRow[];
  /** After a rotation: until when the previous secret still signs (null: there was none). */
  rotatedUntil?: Date | null;
  tested?: { event: EventType; attempts: TestAttempt[] };
  testError?: string;
}) {
  const { ctx } = props;
  const t = ctx.t;
  const hooks = props.hooks;
  return (
    <>
      <section class="card section" aria-labelledby="new-webhook">
        <h2 id="new-webhook">{t('addUrl')}</h2>
        <p class="hint">{t('addUrlHint')}</p>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <form class="stack" method="post" action={`${props.base}/webhooks`}>
          <CsrfField ctx={ctx} />
          <div class="grid-2">
            <div>
              <label for="eventType">{t('event')}</label>
              <select id="eventType" name="eventType">{EVENTS.map((e) => <option value={e}>{e}</option>)}</select>
            </div>
            <div>
              <label for="url">URL</label>
              <input id="url" name="url" type="url" required placeholder="https://example.com/pix" />
            </div>
          </div>
          <div>
            <label for="headers">{t('customHeaders')}</label>
            <textarea id="headers" name="headers" rows={2} style="min-height: 60px" placeholder="Authorization: Bearer ..."></textarea>
          </div>
          <button class="primary" type="submit">{t('addUrlButton')}</button>
        </form>
      </section>
      <section class="card table-card section" aria-labelledby="webhook-list">
        <h2 id="webhook-list">{t('registeredUrls')}</h2>
        {hooks.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">{t('event')}</th><th scope="col">URL</th><th scope="col" class="hide-phone">{t('headers')}</th><th scope="col"><span class="skip">{t('actions')}</span></th></tr></thead>
            <tbody>
              {hooks.map((w) => (
                <tr>
                  <td>{w.event_type}</td>
                  <td class="mono">{w.url}</td>
                  <td class="hide-phone mono">{(w.headers as WebhookHeader[]).map((h) => h.key).join(', ') || '—'}</td>
                  <td>
                    <DangerAction ctx={ctx} action={`${props.base}/webhooks/${w.id}/remove`} confirm={t('removeUrlConfirm')} label={t('remove')} ariaLabel={t('removeUrl', { url: w.url, event: w.event_type })} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <WebhookSecretSection ctx={ctx} base={props.base} secret={props.secret} rotatedUntil={props.rotatedUntil} />
      <WebhookTestSection ctx={ctx} base={props.base} tested={props.tested} testError={props.testError} />
    </>
  );
}
