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
export const suspenseRoutes: PortalRoutes = (app, c) => {
  async function show(request: FastifyRequest, reply: FastifyReply, props: { notice?: string; error?: string } = {}, status = 200) {
    requireOperator(request);
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    const { items } = await c.suspense.list({ status: 'OPEN', page: 1, size: 100 });
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t('suspense')} active="/portal/admin/suspense">
        <h1>{ctx.t('suspense')}</h1>
        <p class="lead">
          {en
            ? 'PIX received on the pooled account that named no charge we could credit. Assign each one to the account it belongs to.'
            : 'PIX recebidos na conta do provedor sem cobrança que pudéssemos creditar. Atribua cada um à conta a que pertence.'}
        </p>
        {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <section class="card table-card section" aria-labelledby="suspense-open">
          <h2 id="suspense-open">{en ? 'Waiting for an operator' : 'Aguardando um operador'}</h2>
          {items.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{ctx.t('date')}</th>
                  <th scope="col" class="num">{en ? 'Amount' : 'Valor'}</th>
                  <th scope="col">{en ? 'Payer' : 'Pagador'}</th>
                  <th scope="col" class="hide-phone">{en ? 'Reason' : 'Motivo'}</th>
                  <th scope="col">{en ? 'Assign to account' : 'Atribuir à conta'}</th>
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
                        <label class="skip" for={`account-${item.id}`}>{en ? `Account for ${brl(item.amount)} from ${item.payer.name}` : `Conta para ${brl(item.amount)} de ${item.payer.name}`}</label>
                        <input id={`account-${item.id}`} name="accountId" inputmode="numeric" required pattern="[0-9]{1,9}" />
                        <button class="primary" type="submit">{en ? 'Assign' : 'Atribuir'}</button>
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
    const en = request.portal.lang === 'en';
    const id = (request.params as { id: string }).id;
    const accountId = field(request.body, 'accountId').trim();
    if (!/^\d{1,15}$/.test(id)) throw new DomainError('NOT_FOUND');
    if (!/^\d{1,9}$/.test(accountId)) return show(request, reply, { error: en ? 'accountId must be an account number' : 'accountId deve ser o número de uma conta' }, 400);
    try {
      const { tx } = await c.suspense.assign(Number(id), Number(accountId), recordAs(c.audit, actorOf(request), 'suspense.assign'));
      return show(request, reply, { notice: en ? `Assigned to account #${accountId} (transaction ${tx.transaction_id}).` : `Atribuído à conta #${accountId} (transação ${tx.transaction_id}).` });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, { error: refused.message }, refused.status);
    }
  });
};
