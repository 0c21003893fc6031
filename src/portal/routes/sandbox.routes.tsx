/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import type { AuditEntry } from '../../services/audit/audit-log.ts';
import { brl, centsFromForm, dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';

/**
 * Sandbox tools (sandbox mode only): the same services the /sandbox routes call, driven from the
 * member's dashboard.
 */
export const sandboxRoutes: PortalRoutes = (app, c) => {
  if (!c.sandboxMode) return;

  async function ToolsPage(props: { ctx: PageContext; accountId: number; notice?: string; error?: string }) {
    const { ctx } = props;
    const en = ctx.lang === 'en';
    const [pending, received] = await Promise.all([c.reads.pendingCharges(props.accountId, 20), c.reads.receivedPix(props.accountId, 20)]);
    return (
      <Page ctx={ctx} title={en ? 'Sandbox tools' : 'Ferramentas do sandbox'} active="/portal/sandbox">
        <h1>{en ? 'Sandbox tools' : 'Ferramentas do sandbox'}<span class="badge-sandbox">{ctx.t('sandbox')}</span></h1>
        <p class="lead">{en ? 'Play the rest of the PIX network: payers at other banks, disputes, time.' : 'Faça o papel do resto da rede PIX: pagadores de outros bancos, contestações, o tempo.'}</p>
        {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <div class="grid-2 section">
          <section class="card" aria-labelledby="tool-deposit">
            <h2 id="tool-deposit">{en ? 'Receive a PIX' : 'Receber um PIX'}</h2>
            <form class="stack" method="post" action="/portal/sandbox/deposit">
              <CsrfField ctx={ctx} />
              <div><label for="deposit-amount">{en ? 'Amount (R$)' : 'Valor (R$)'}</label><input id="deposit-amount" name="amount" inputmode="decimal" required placeholder="100,00" /></div>
              <button class="primary" type="submit">{en ? 'Simulate incoming PIX' : 'Simular PIX recebido'}</button>
            </form>
          </section>
          <section class="card" aria-labelledby="tool-pay">
            <h2 id="tool-pay">{en ? 'Pay one of your charges' : 'Pagar uma cobrança sua'}</h2>
            {pending.length === 0 ? <p class="hint">{en ? 'No charge is waiting for a payer.' : 'Nenhuma cobrança aguardando pagamento.'}</p> : (
              <form class="stack" method="post" action="/portal/sandbox/pay">
                <CsrfField ctx={ctx} />
                <div>
                  <label for="charge">{en ? 'Charge' : 'Cobrança'}</label>
                  <select id="charge" name="charge">{pending.map((p) => <option value={p.transaction_id}>{`${brl(p.amount)} · ${dateTime(p.created_at, ctx.lang)}`}</option>)}</select>
                </div>
                <button class="primary" type="submit">{en ? 'Pay as a payer at another bank' : 'Pagar como pagador de outro banco'}</button>
              </form>
            )}
          </section>
          <section class="card" aria-labelledby="tool-med">
            <h2 id="tool-med">{en ? 'Open a MED' : 'Abrir um MED'}</h2>
            {received.length === 0 ? <p class="hint">{en ? 'No received PIX to dispute.' : 'Nenhum PIX recebido para contestar.'}</p> : (
              <form class="stack" method="post" action="/portal/sandbox/med">
                <CsrfField ctx={ctx} />
                <div>
                  <label for="med-pix">{en ? 'Received PIX' : 'PIX recebido'}</label>
                  <select id="med-pix" name="endToEndId">{received.map((r) => <option value={r.end_to_end_id ?? ''}>{`${brl(r.original_amount)} · ${dateTime(r.created_at, ctx.lang)}`}</option>)}</select>
                </div>
                <button class="primary" type="submit">{en ? 'Open MED' : 'Abrir MED'}</button>
              </form>
            )}
          </section>
          <section class="card" aria-labelledby="tool-clock">
            <h2 id="tool-clock">{en ? 'Move the clock' : 'Avançar o relógio'}</h2>
            <p class="hint">{en ? `Sandbox time: ${dateTime(c.clock.now(), ctx.lang)}. It is shared by every account of this sandbox.` : `Hora do sandbox: ${dateTime(c.clock.now(), ctx.lang)}. É a mesma para todas as contas deste sandbox.`}</p>
            <form class="stack" method="post" action="/portal/sandbox/clock">
              <CsrfField ctx={ctx} />
              <div><label for="minutes">{en ? 'Minutes forward' : 'Minutos à frente'}</label><input id="minutes" name="minutes" type="number" min={1} max={525600} required value="60" /></div>
              <button class="primary" type="submit">{en ? 'Move forward' : 'Avançar'}</button>
            </form>
          </section>
        </div>
      </Page>
    );
  }

  const show = async (request: FastifyRequest, reply: FastifyReply, props: { notice?: string; error?: string } = {}, status = 200) =>
    render(reply, <ToolsPage ctx={request.portal} accountId={memberAccountId(request)} {...props} />, status);
  /**
   * Runs a tool; once the simulated network has acted (in its own transaction: it is the outside
   * world), who used the tool is recorded in the audit log.
   */
  const attempt = async (request: FastifyRequest, reply: FastifyReply, action: () => Promise<{ notice: string; audit: AuditEntry }>) => {
    try {
      const done = await action();
      await c.audit.recordNow(actorOf(request), done.audit);
      return show(request, reply, { notice: done.notice });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, { error: refused.message }, refused.status);
    }
  };

  app.get('/sandbox', (request, reply) => show(request, reply));

  app.post('/sandbox/deposit', async (request, reply) => {
    const accountId = memberAccountId(request);
    const amount = centsFromForm(field(request.body, 'amount'));
    if (amount === undefined || amount <= 0) return show(request, reply, { error: 'amount must be an amount in reais with at most 2 decimals' }, 400);
    return attempt(request, reply, async () => {
      const tx = await c.sandboxNetwork!.sendPix(accountId, amount as Cents);
      return {
        notice: request.portal.lang === 'en' ? `Received ${brl(amount)}.` : `Recebido ${brl(amount)}.`,
        audit: { action: 'sandbox.pix_in', accountId, target: tx.transaction_id, after: { amount } },
      };
    });
  });

  app.post('/sandbox/pay', async (request, reply) => {
    const accountId = memberAccountId(request);
    return attempt(request, reply, async () => {
      const tx = await c.sandboxNetwork!.payCharge(accountId, field(request.body, 'charge'), {});
      return {
        notice: request.portal.lang === 'en' ? `Charge paid: ${brl(tx.original_amount)}.` : `Cobrança paga: ${brl(tx.original_amount)}.`,
        audit: { action: 'sandbox.charge_paid', accountId, target: tx.transaction_id, after: { amount: tx.original_amount } },
      };
    });
  });

  app.post('/sandbox/med', async (request, reply) => {
    const accountId = memberAccountId(request);
    return attempt(request, reply, async () => {
      const endToEndId = field(request.body, 'endToEndId');
      await c.sandboxNetwork!.reportInfraction({ accountId, endToEndId, cause: 'OTHER', description: null });
      return { notice: request.portal.lang === 'en' ? 'MED opened.' : 'MED aberto.', audit: { action: 'sandbox.med_opened', accountId, target: endToEndId } };
    });
  });

  app.post('/sandbox/clock', async (request, reply) => {
    const accountId = memberAccountId(request);
    const minutes = Number(field(request.body, 'minutes'));
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 525_600) return show(request, reply, { error: 'minutes must be a whole number between 1 and 525600' }, 400);
    const advance = c.advanceSandboxClock;
    if (!advance) throw new DomainError('NOT_FOUND');
    return attempt(request, reply, async () => {
      await advance(minutes * 60);
      return {
        notice: request.portal.lang === 'en' ? `Clock moved ${minutes} min forward.` : `Relógio avançado ${minutes} min.`,
        audit: { action: 'sandbox.clock', accountId, after: { minutes } },
      };
    });
  });
};
