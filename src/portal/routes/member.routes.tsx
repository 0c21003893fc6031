/** @jsxImportSource hono/jsx */
import type { TransactionKind, TransactionStatus } from '../../db/schema.ts';
import { publicCounterpart } from '../../webhooks/payloads/transaction-event.ts';
import { memberAccountId, render, type PortalRoutes } from '../context.ts';
import { centsFromNumber } from '../../domain/money.ts';
import { brl, dateTime } from '../format.ts';
import { refusal } from '../forms.ts';
import { medStatusText, Page, StatusPill } from '../layout.tsx';
import { portalReads } from '../portal-reads.repo.ts';
import { SignedAmount, TransactionTable } from '../pages/transactions.tsx';
import { chargesRoutes } from './charges.routes.tsx';
import { payoutsRoutes } from './payouts.routes.tsx';
import { integrationRoutes } from './integration.routes.tsx';
import { sandboxRoutes } from './sandbox.routes.tsx';
import { BalanceCards } from '../pages/balance.tsx';
import { TransactionDeliveries } from '../pages/deliveries.tsx';

const KINDS: TransactionKind[] = ['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT'];
const STATUSES: TransactionStatus[] = ['PENDING', 'CONFIRMED', 'ERROR'];
const PAGE_SIZE = 25;
const MED_ANALYSIS_DAYS = 7;

export const memberRoutes: PortalRoutes = (app, c) => {
  app.get('/', async (request, reply) => {
    const session = request.portal.session!;
    if (session.user.role === 'OPERATOR') return reply.redirect('/portal/admin/accounts', 303);
    const accountId = memberAccountId(request);
    const [account, latest] = await Promise.all([c.accounts.get(accountId), portalReads.latestTransactions(c.db, accountId, 10)]);
    const { ctx } = { ctx: request.portal };
    const t = ctx.t;
    return render(
      reply,
      <Page ctx={ctx} title={t('home')} active="/portal">
        <div class="page-head">
          <div>
            <h1>
              {account.name}
              {ctx.sandbox ? <span class="badge-sandbox">{t('sandbox')}</span> : null}
            </h1>
            <p class="lead">
              {t('pixKey')}: <span class="mono">{account.pix_key}</span>
            </p>
          </div>
        </div>
        <BalanceCards ctx={ctx} available={account.available} blocked={account.blocked} />
        <section class="card table-card section" aria-labelledby="latest">
          <div class="page-head" style="padding: 16px 20px 0; margin: 0">
            <h2 id="latest">{t('latestTransactions')}</h2>
            <a href="/portal/transactions">{t('seeAll')}</a>
          </div>
          <TransactionTable ctx={ctx} rows={latest} />
        </section>
      </Page>,
    );
  });

  app.get('/transactions', async (request, reply) => {
    const accountId = memberAccountId(request);
    const q = request.query as Record<string, string | undefined>;
    const ctx = request.portal;
    const t = ctx.t;
    const type = KINDS.find((k) => k === q.type);
    const status = STATUSES.find((s) => s === q.status);
    const page = /^[1-9]\d{0,6}$/.test(q.page ?? '') ? Number(q.page) : 1;
    let result: Awaited<ReturnType<typeof c.transactions.browse>> | undefined;
    let problem: { status: number; message: string } | undefined;
    try {
      result = await c.transactions.browse(accountId, {
        page,
        size: PAGE_SIZE,
        ...(type ? { type } : {}),
        ...(status ? { status } : {}),
        ...(q.startDate ? { startDate: q.startDate } : {}),
        ...(q.endDate ? { endDate: q.endDate } : {}),
      });
    } catch (error) {
      problem = refusal(error, request.portal.lang);
    }
    const link = (p: number) => {
      const params = new URLSearchParams(Object.entries({ ...q, page: String(p) }).filter((e): e is [string, string] => Boolean(e[1])));
      return `/portal/transactions?${params}`;
    };
    const meta = result;
    return render(
      reply,
      <Page ctx={ctx} title={t('transactions')} active="/portal/transactions">
        <h1>{t('transactions')}</h1>
        <p class="lead">{ctx.lang === 'en' ? 'At most 31 days per search, newest first.' : 'Até 31 dias por busca, das mais recentes às mais antigas.'}</p>
        {problem ? <div class="alert alert-error" role="alert">{problem.message}</div> : null}
        <section class="card table-card">
          <form class="filters" method="get" action="/portal/transactions">
            <div>
              <label for="startDate">{t('from')}</label>
              <input id="startDate" name="startDate" type="date" value={q.startDate ?? ''} />
            </div>
            <div>
              <label for="endDate">{t('to')}</label>
              <input id="endDate" name="endDate" type="date" value={q.endDate ?? ''} />
            </div>
            <div>
              <label for="type">{t('type')}</label>
              <select id="type" name="type">
                <option value="">{t('any')}</option>
                {KINDS.map((k) => <option value={k} selected={k === type}>{t(k)}</option>)}
              </select>
            </div>
            <div>
              <label for="status">{t('status')}</label>
              <select id="status" name="status">
                <option value="">{t('any')}</option>
                {STATUSES.map((s) => <option value={s} selected={s === status}>{t(s)}</option>)}
              </select>
            </div>
            <button class="primary" type="submit">{t('filter')}</button>
          </form>
          <TransactionTable ctx={ctx} rows={result?.rows ?? []} />
          {meta && (meta.hasNext || meta.hasPrevious) ? (
            <nav class="pager" aria-label={t('pageOf', { page: meta.page })}>
              {meta.hasPrevious ? <a href={link(meta.page - 1)} rel="prev">{t('previous')}</a> : <span></span>}
              <span>{t('pageOf', { page: meta.page })}</span>
              {meta.hasNext ? <a href={link(meta.page + 1)} rel="next">{t('next')}</a> : <span></span>}
            </nav>
          ) : null}
        </section>
      </Page>,
      problem ? problem.status : 200,
    );
  });

  app.get('/transactions/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const tx = await c.transactions.get(accountId, (request.params as { id: string }).id);
    const [refunds, meds, deliveries, attempts] = await Promise.all([
      portalReads.refundsOf(c.db, accountId, tx.id),
      portalReads.medsOf(c.db, accountId, tx.id),
      portalReads.deliveriesOfTransaction(c.db, accountId, tx.id),
      portalReads.attemptsOfTransaction(c.db, accountId, tx.id),
    ]);
    const ctx = request.portal;
    const t = ctx.t;
    const cp = publicCounterpart(tx.counterpart);
    // A payout still on its way may not know its receiver yet (a provider tells it when it settles).
    const unknown = tx.kind === 'WITHDRAW' && tx.status === 'PENDING' ? <em class="muted">{t('notKnownUntilSettled')}</em> : '—';
    return render(
      reply,
      <Page ctx={ctx} title={t('transaction')} active="/portal/transactions">
        <div class="page-head">
          <div>
            <h1>
              {t(tx.kind)} <SignedAmount tx={tx} />
            </h1>
            <p class="lead mono">{tx.transaction_id}</p>
          </div>
          <StatusPill ctx={ctx} status={tx.status} />
        </div>
        <div class="grid-2 section">
          <section class="card" aria-labelledby="amounts">
            <h2 id="amounts">{t('amount')}</h2>
            <dl class="details">
              <dt>{t('amount')}</dt>
              <dd>{brl(tx.original_amount)}</dd>
              <dt>{t('fee')}</dt>
              <dd>{brl(tx.fee_amount)}</dd>
              <dt>{t('net')}</dt>
              <dd>{brl(tx.final_amount)}</dd>
              <dt>{t('status')}</dt>
              <dd>{t(tx.status)}{tx.error_message ? ` — ${tx.error_message}` : ''}</dd>
              <dt>{t('endToEndId')}</dt>
              <dd class="mono">{tx.end_to_end_id ?? '—'}</dd>
              <dt>{t('createdAt')}</dt>
              <dd>{dateTime(tx.created_at, ctx.lang)}</dd>
              <dt>{t('processedAt')}</dt>
              <dd>{dateTime(tx.processed_at, ctx.lang)}</dd>
              {tx.description ? (
                <>
                  <dt>{t('description')}</dt>
                  <dd>{tx.description}</dd>
                </>
              ) : null}
            </dl>
          </section>
          <section class="card" aria-labelledby="counterpart">
            <h2 id="counterpart">{t('counterpart')}</h2>
            <dl class="details">
              <dt>{ctx.lang === 'en' ? 'Name' : 'Nome'}</dt>
              <dd>{cp.name ?? unknown}</dd>
              <dt>{t('document')}</dt>
              <dd class="mono">{cp.document ?? '—'}</dd>
              <dt>{t('bank')}</dt>
              <dd>{[cp.bank.bankName, cp.bank.bankISPB].filter(Boolean).join(' · ') || unknown}</dd>
              <dt>{ctx.lang === 'en' ? 'Branch / account' : 'Agência / conta'}</dt>
              <dd>{[cp.bank.accountBranch, cp.bank.accountNumber].filter(Boolean).join(' / ') || '—'}</dd>
            </dl>
          </section>
        </div>
        <section class="card table-card section" aria-labelledby="refunds">
          <h2 id="refunds">{t('refunds')}</h2>
          {refunds.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('type')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
              <tbody>
                {refunds.map((r) => (
                  <tr>
                    <td><a href={`/portal/transactions/${r.transaction_id}`}>{dateTime(r.created_at, ctx.lang)}</a></td>
                    <td>{t(r.kind)}</td>
                    <td><StatusPill ctx={ctx} status={r.status} /></td>
                    <td class="num">{brl(r.original_amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card table-card section" aria-labelledby="meds">
          <h2 id="meds">MED</h2>
          {meds.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
              <tbody>
                {meds.map((m) => (
                  <tr><td>{dateTime(m.created_at, ctx.lang)}</td><td>{medStatusText(t, m.status, m.analysis_result)}</td><td class="num">{brl(m.disputed_amount)}</td></tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <TransactionDeliveries ctx={ctx} transactionId={tx.transaction_id} deliveries={deliveries} attempts={attempts} />
      </Page>,
    );
  });

  app.get('/med', async (request, reply) => {
    const accountId = memberAccountId(request);
    const q = request.query as { page?: string };
    const page = /^[1-9]\d{0,6}$/.test(q.page ?? '') ? Number(q.page) : 1;
    const result = await c.meds.list(accountId, {}, page, 25);
    const ctx = request.portal;
    const t = ctx.t;
    const en = ctx.lang === 'en';
    return render(
      reply,
      <Page ctx={ctx} title={t('med')} active="/portal/med">
        <h1>{en ? 'MED — special return mechanism' : 'MED — mecanismo especial de devolução'}</h1>
        <p class="lead">{en ? 'Infractions other banks opened against PIX you received. Analysis is due 7 days after opening.' : 'Infrações abertas por outros bancos contra PIX recebidos. A análise vence 7 dias após a abertura.'}</p>
        <section class="card table-card">
          {result.data.length === 0 ? <p class="empty">{en ? 'No infractions. Good.' : 'Nenhuma infração.'}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{en ? 'Opened' : 'Aberta'}</th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col" class="hide-phone">{en ? 'Requesting bank' : 'Banco solicitante'}</th>
                  <th scope="col">{en ? 'Analysis due' : 'Prazo da análise'}</th>
                  <th scope="col" class="num">{t('amount')}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.map((m) => {
                  const opened = new Date(m.createdAt);
                  const due = new Date(opened.getTime() + MED_ANALYSIS_DAYS * 86_400_000);
                  const open = m.status === 'OPEN' || m.status === 'RECEIVED';
                  return (
                    <tr>
                      <td>
                        {m.originalTransactionId ? <a href={`/portal/transactions/${m.originalTransactionId}`}>{dateTime(opened, ctx.lang)}</a> : dateTime(opened, ctx.lang)}
                      </td>
                      <td><span class={`pill ${open ? 'pill-warn' : m.analysisResult === 'APPROVED' ? 'pill-bad' : 'pill-muted'}`}>{medStatusText(t, m.status, m.analysisResult)}</span></td>
                      <td class="hide-phone">{m.requestingBank.name}</td>
                      <td>{open ? dateTime(due, ctx.lang) : '—'}</td>
                      <td class="num">{m.transaction ? brl(centsFromNumber(m.transaction.amount) ?? 0) : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </section>
      </Page>,
    );
  });

  chargesRoutes(app, c);
  payoutsRoutes(app, c);
  integrationRoutes(app, c);
  sandboxRoutes(app, c);
};
