/** @jsxImportSource hono/jsx */
import { render, requireOperator, type PortalRoutes } from '../context.ts';
import { dateTime } from '../format.ts';
import { Page } from '../layout.tsx';
import { AuditChange } from '../pages/audit-change.tsx';

/** The audit log for operators: every change, filtered by account, action or person, newest first. */
export const auditRoutes: PortalRoutes = (app, s) => {
  app.get('/admin/audit', async (request, reply) => {
    requireOperator(request);
    const q = request.query as Record<string, string | undefined>;
    const accountId = /^\d{1,9}$/.test(q.account ?? '') ? Number(q.account) : undefined;
    const beforeId = /^\d{1,15}$/.test(q.before ?? '') ? Number(q.before) : undefined;
    const rows = await s.audit.list({
      ...(accountId !== undefined ? { accountId } : {}),
      ...(q.action ? { action: q.action.slice(0, 60) } : {}),
      ...(q.actor ? { actor: q.actor.slice(0, 254) } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
      limit: 50,
    });
    const ctx = request.portal;
    const t = ctx.t;
    const next = rows.length === 50 ? new URLSearchParams(Object.entries({ ...q, before: String(rows[rows.length - 1]!.id) }).filter((e): e is [string, string] => Boolean(e[1]))) : undefined;
    return render(
      reply,
      <Page ctx={ctx} title={t('auditLog')} active="/portal/admin/audit">
        <h1>{t('auditLog')}</h1>
        <p class="lead">{t('auditLead')}</p>
        <section class="card table-card">
          <form class="filters" method="get" action="/portal/admin/audit">
            <div><label for="account">{t('account')}</label><input id="account" name="account" inputmode="numeric" value={q.account ?? ''} /></div>
            <div><label for="action">{t('action')}</label><input id="action" name="action" placeholder="account.limits" value={q.action ?? ''} /></div>
            <div><label for="actor">{t('who')}</label><input id="actor" name="actor" placeholder="admin-api, ops@example.com" value={q.actor ?? ''} /></div>
            <button class="primary" type="submit">{t('filter')}</button>
          </form>
          {rows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('who')}</th><th scope="col">{t('action')}</th><th scope="col" class="hide-phone">{t('account')}</th><th scope="col" class="hide-phone">{t('address')}</th><th scope="col" class="hide-phone">{t('change')}</th></tr></thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <td class="nowrap">{dateTime(r.at, ctx.lang)}</td>
                    <td>{r.actor_email ?? r.actor}</td>
                    <td class="mono action">{r.action.split('.').map((part, i) => (i === 0 ? part : <><wbr />.{part}</>))}</td>
                    <td class="hide-phone">{r.account_id ? <a href={`/portal/admin/accounts/${r.account_id}`}>#{r.account_id}</a> : '—'}</td>
                    <td class="hide-phone mono nowrap">{r.address ?? '—'}</td>
                    <td class="hide-phone" style="max-width: 380px"><AuditChange before={r.before} after={r.after} unchanged={t('noChange')} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {next ? <nav class="pager" aria-label={t('olderEntries')}><span></span><a href={`/portal/admin/audit?${next}`} rel="next">{t('next')}</a></nav> : null}
        </section>
      </Page>,
    );
  });
};
