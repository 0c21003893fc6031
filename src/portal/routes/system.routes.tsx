/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, render, requireOperator, type PortalRoutes } from '../context.ts';
import { dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page } from '../layout.tsx';

/** The System page for operators: jobs, failing webhook deliveries, operators (add one). */
export const systemRoutes: PortalRoutes = (app, s) => {
  /** The System page; `problem` is a refused "add operator" form, shown next to it. */
  async function showSystem(request: FastifyRequest, reply: FastifyReply, problem?: { status: number; message: string; email: string }) {
    requireOperator(request);
    const [jobs, failedDeliveries, operators] = await Promise.all([s.reads.jobSummary(), s.reads.failingDeliveries(25), s.portalPeople.operators()]);
    const ctx = request.portal;
    const t = ctx.t;
    return render(
      reply,
      <Page ctx={ctx} title={t('system')} active="/portal/admin/system">
        <h1>{t('system')}</h1>
        <section class="cards" aria-label={t('jobs')}>
          <div class="card"><div class="stat-label">{t('jobsWaiting')}</div><div class="stat-value">{jobs.pending}</div></div>
          <div class="card"><div class="stat-label">{t('jobsFailed')}</div><div class="stat-value">{jobs.failed}</div></div>
          <div class="card"><div class="stat-label">{t('deliveriesFailing')}</div><div class="stat-value">{failedDeliveries.total}</div></div>
        </section>
        <section class="card table-card section" aria-labelledby="failing-jobs">
          <h2 id="failing-jobs">{t('failedJobs')}</h2>
          {jobs.failedRows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('kind')}</th><th scope="col">{t('attempts')}</th><th scope="col">{t('lastError')}</th><th scope="col">{t('date')}</th></tr></thead>
              <tbody>{jobs.failedRows.map((j) => <tr><td class="mono">{j.kind}</td><td>{j.attempts}</td><td>{j.last_error ?? '—'}</td><td>{dateTime(j.updated_at, ctx.lang)}</td></tr>)}</tbody>
            </table>
          )}
        </section>
        <section class="card table-card section" aria-labelledby="failing-deliveries">
          <h2 id="failing-deliveries">{t('webhookDeliveriesFailing')}</h2>
          {failedDeliveries.rows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('account')}</th><th scope="col">URL</th><th scope="col">HTTP</th><th scope="col">{t('attempts')}</th><th scope="col">{t('nextRetry')}</th></tr></thead>
              <tbody>
                {failedDeliveries.rows.map((d) => (
                  <tr>
                    <td><a href={`/portal/admin/accounts/${d.account_id}`}>#{d.account_id}</a></td>
                    <td class="mono">{d.url}</td>
                    <td>{d.last_status_code ?? d.last_error?.slice(0, 40) ?? '—'}</td>
                    <td>{d.attempts}</td>
                    <td>{d.status === 'pending' ? dateTime(d.next_attempt_at, ctx.lang) : t('gaveUp')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card section" style="max-width: 560px" aria-labelledby="operators">
          <h2 id="operators">{t('operators')}</h2>
          <ul>{operators.map((o) => <li>{o.email}</li>)}</ul>
          {problem ? <div class="alert alert-error" role="alert">{problem.message}</div> : null}
          <form class="stack" method="post" action="/portal/admin/operators">
            <CsrfField ctx={ctx} />
            <div><label for="op-email">{t('email')}</label><input id="op-email" name="email" type="email" required value={problem?.email ?? ''} /></div>
            <div><label for="op-password">{t('password')}</label><input id="op-password" name="password" type="password" minlength={12} required autocomplete="new-password" /></div>
            <button class="primary" type="submit">{t('addOperator')}</button>
          </form>
        </section>
      </Page>,
      problem?.status ?? 200,
    );
  }

  app.get('/admin/system', (request, reply) => showSystem(request, reply));

  app.post('/admin/operators', async (request, reply) => {
    requireOperator(request);
    const email = field(request.body, 'email');
    try {
      await s.portalPeople.createOperator(actorOf(request), { email, password: field(request.body, 'password') });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return showSystem(request, reply, { ...refused, email });
    }
    return reply.redirect('/portal/admin/system', 303);
  });
};
