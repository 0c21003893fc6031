/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { maskDocument } from '../../domain/documents.ts';
import { recordAs } from '../../services/audit/audit-log.ts';
import { actorOf, render, requireOperator, type PortalRoutes } from '../context.ts';
import { brl, dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page } from '../layout.tsx';

/**
 * Money held in suspense (issue 13): what reached the pooled account at the provider naming no
 * charge we could credit, listed for operators, each assigned to an account with one form (the
 * same service as POST /admin/network/suspense/{id}/assign, audited).
 */
export const suspenseRoutes: PortalRoutes = (app, s) => {
  async function show(request: FastifyRequest, reply: FastifyReply, props: { notice?: string; error?: string } = {}, status = 200) {
    requireOperator(request);
    const ctx = request.portal;
    const t = ctx.t;
    const { items } = await s.suspense.list({ status: 'OPEN', page: 1, size: 100 });
    return render(
      reply,
      <Page ctx={ctx} title={t('suspense')} active="/portal/admin/suspense">
        <h1>{t('suspense')}</h1>
        <p class="lead">
          {t('suspenseLead')}
        </p>
        {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <section class="card table-card section" aria-labelledby="suspense-open">
          <h2 id="suspense-open">{t('waitingForOperator')}</h2>
          {items.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('date')}</th>
                  <th scope="col" class="num">{t('amount')}</th>
                  <th scope="col">{t('payer')}</th>
                  <th scope="col" class="hide-phone">{t('reason')}</th>
                  <th scope="col">{t('assignToAccount')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr>
                    <td>{dateTime(item.received_at, ctx.lang)}</td>
                    <td class="num">{brl(item.amount)}</td>
                    <td>{item.payer.name}{item.payer.document ? <span class="mono"> · {maskDocument(item.payer.document)}</span> : null}<div class="mono">{item.end_to_end_id}</div></td>
                    <td class="hide-phone mono">{item.reason}</td>
                    <td>
                      <form class="filters" method="post" action={`/portal/admin/suspense/${item.id}/assign`}>
                        <CsrfField ctx={ctx} />
                        <label class="skip" for={`account-${item.id}`}>{t('accountFor', { amount: brl(item.amount), payer: item.payer.name })}</label>
                        <input id={`account-${item.id}`} name="accountId" inputmode="numeric" required pattern="[0-9]{1,9}" />
                        <button class="primary" type="submit">{t('assign')}</button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </Page>,
      status,
    );
  }

  app.get('/admin/suspense', (request, reply) => show(request, reply));

  app.post('/admin/suspense/:id/assign', async (request, reply) => {
    requireOperator(request);
    const t = request.portal.t;
    const id = (request.params as { id: string }).id;
    const accountId = field(request.body, 'accountId').trim();
    if (!/^\d{1,15}$/.test(id)) throw new DomainError('NOT_FOUND');
    if (!/^\d{1,9}$/.test(accountId)) return show(request, reply, { error: t('accountIdInvalid') }, 400);
    try {
      const { tx } = await s.suspense.assign(Number(id), Number(accountId), recordAs(s.audit, actorOf(request), 'suspense.assign'));
      return show(request, reply, { notice: t('assigned', { account: accountId, transaction: tx.transaction_id }) });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, { error: refused.message }, refused.status);
    }
  });
};
