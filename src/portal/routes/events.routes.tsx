/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page } from '../layout.tsx';
import { recordAs } from '../../services/audit/audit-log.ts';

const LATEST = 50;

/** A `datetime-local` value (no zone) read as São Paulo time (UTC-3, no daylight saving since 2019). */
const saoPauloInstant = (value: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.length === 16 ? `${value}:00` : value}-03:00` : value);

/**
 * The Events page (issue 29): the account's latest events, each with its payload as its webhooks
 * carried it and every delivery attempt; and "Replay failed since", the same rule as
 * POST /api/webhook-deliveries/replay with status "failed".
 */
export const eventsRoutes: PortalRoutes = (app, s) => {
  async function show(request: FastifyRequest, reply: FastifyReply, extra: { error?: string; notice?: string; since?: string } = {}, status = 200) {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const t = ctx.t;
    const recent = await s.eventLog.recent(accountId, LATEST);
    return render(
      reply,
      <Page ctx={ctx} title={t('events')} active="/portal/events">
        <h1>{t('events')}</h1>
        <p class="lead">{t('eventsLead')}</p>
        {extra.error ? <div class="alert alert-error" role="alert">{extra.error}</div> : null}
        {extra.notice ? <div class="alert alert-ok" role="status">{extra.notice}</div> : null}
        <section class="card section" aria-labelledby="replay">
          <h2 id="replay">{t('replayFailedSince')}</h2>
          <p class="hint">{t('replayHint')}</p>
          <form method="post" action="/portal/events/replay" class="filters">
            <CsrfField ctx={ctx} />
            <div>
              <label for="since">{t('replayFailedSince')}</label>
              <input id="since" name="since" type="datetime-local" required value={extra.since ?? ''} />
            </div>
            <button class="button" type="submit">{t('replayButton')}</button>
          </form>
        </section>
        <section class="card table-card section">
          {recent.length === 0 ? <p class="empty">{t('eventsNone')}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('time')}</th>
                  <th scope="col">{t('event')}</th>
                  <th scope="col" class="hide-phone">ID</th>
                </tr>
              </thead>
              {recent.map(({ event, attempts }) => (
                <tbody class="event">
                  <tr>
                    <td>{dateTime(event.createdAt, ctx.lang)}</td>
                    <td class="mono">{event.type}</td>
                    <td class="hide-phone mono">{event.eventId}</td>
                  </tr>
                  <tr class="attempt-log">
                    <td colspan={3}>
                      <details>
                        <summary>{t('payload')}</summary>
                        <pre class="mono">{event.body}</pre>
                      </details>
                      <details>
                        <summary>{t('attemptsCount', { count: attempts.length })}</summary>
                        {attempts.length === 0 ? <p class="hint">{t('noneYet')}</p> : (
                          <table class="attempts">
                            <thead>
                              <tr>
                                <th scope="col">{t('time')}</th>
                                <th scope="col">URL</th>
                                <th scope="col">{t('response')}</th>
                                <th scope="col" class="num">{t('duration')}</th>
                                <th scope="col">{t('kind')}</th>
                              </tr>
                            </thead>
                            <tbody>
                              {attempts.map((a) => {
                                const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
                                return (
                                  <tr>
                                    <td>{dateTime(a.at, ctx.lang)}</td>
                                    <td class="mono">{a.url}</td>
                                    <td><span class={`pill ${ok ? 'pill-ok' : 'pill-bad'}`}>{a.statusCode ?? (a.error ? a.error.slice(0, 40) : '—')}</span></td>
                                    <td class="num">{`${a.durationMs} ms`}</td>
                                    <td>{a.kind === 'resend' ? t('resendAttempt') : t('attemptNumber', { n: a.attempt ?? '' })}</td>
                                  </tr>
                                );
                              })}
                            </tbody>
                          </table>
                        )}
                      </details>
                    </td>
                  </tr>
                </tbody>
              ))}
            </table>
          )}
        </section>
      </Page>,
      status,
    );
  }

  app.get('/events', async (request, reply) => {
    const queued = (request.query as { queued?: string }).queued;
    return show(request, reply, /^\d{1,9}$/.test(queued ?? '') ? { notice: request.portal.t('replayQueued', { count: Number(queued) }) } : {});
  });

  app.post('/events/replay', async (request, reply) => {
    const accountId = memberAccountId(request);
    const since = field(request.body, 'since').trim();
    try {
      const { queued } = await s.webhookReplay.replay(accountId, { since: saoPauloInstant(since), status: 'failed' }, recordAs(s.audit, actorOf(request), 'webhook-deliveries.replay'));
      return reply.redirect(`/portal/events?queued=${queued}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, { error: refused.message, since }, refused.status);
    }
  });
};
