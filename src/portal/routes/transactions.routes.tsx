/** @jsxImportSource hono/jsx */
import { Readable } from 'node:stream';
import type { TransactionKind, TransactionStatus } from '../../db/schema.ts';
import { TRANSACTION_CSV_HEADER, transactionCsvLine } from '../csv.ts';
import { memberAccountId, render, type PortalRoutes } from '../context.ts';
import { refusal } from '../forms.ts';
import { Page } from '../layout.tsx';
import { TransactionPage } from '../pages/transaction-page.tsx';
import { TransactionTable } from '../pages/transactions.tsx';
import { refundableNow } from './refunds.routes.tsx';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../domain/closed-lists.ts';

const KINDS: readonly TransactionKind[] = TRANSACTION_KINDS;
const STATUSES: readonly TransactionStatus[] = TRANSACTION_STATUSES;
const PAGE_SIZE = 25;

/** The member's transactions (filtered, paged, through the same service as the API) and each one's page. */
export const transactionsRoutes: PortalRoutes = (app, s) => {
  app.get('/transactions', async (request, reply) => {
    const accountId = memberAccountId(request);
    const q = request.query as Record<string, string | undefined>;
    const ctx = request.portal;
    const t = ctx.t;
    const type = KINDS.find((k) => k === q.type);
    const status = STATUSES.find((st) => st === q.status);
    const page = /^[1-9]\d{0,6}$/.test(q.page ?? '') ? Number(q.page) : 1;
    let meta: Awaited<ReturnType<typeof s.transactions.browse>> | undefined;
    let problem: { status: number; message: string } | undefined;
    try {
      meta = await s.transactions.browse(accountId, {
        page,
        size: PAGE_SIZE,
        ...(type ? { type } : {}),
        ...(status ? { status } : {}),
        ...(q.startDate ? { startDate: q.startDate } : {}),
        ...(q.endDate ? { endDate: q.endDate } : {}),
      });
    } catch (error) {
      problem = refusal(error, ctx.lang);
    }
    const exportLink = () => {
      const params = new URLSearchParams(Object.entries({ ...q, page: '' }).filter((e): e is [string, string] => Boolean(e[1])));
      return `/portal/transactions/export.csv${params.size ? `?${params}` : ''}`;
    };
    const link = (p: number) => {
      const params = new URLSearchParams(Object.entries({ ...q, page: String(p) }).filter((e): e is [string, string] => Boolean(e[1])));
      return `/portal/transactions?${params}`;
    };
    return render(
      reply,
      <Page ctx={ctx} title={t('transactions')} active="/portal/transactions">
        <h1>{t('transactions')}</h1>
        <p class="lead">{t('transactionsLead')}</p>
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
                {STATUSES.map((st) => <option value={st} selected={st === status}>{t(st)}</option>)}
              </select>
            </div>
            <button class="primary" type="submit">{t('filter')}</button>
            <a class="button secondary" href={exportLink()} download aria-describedby="export-hint">{t('exportCsv')}</a>
          </form>
          <p class="hint" id="export-hint">{t('exportHint')}</p>
          <TransactionTable ctx={ctx} rows={meta?.rows ?? []} />
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

  // The list's rows as CSV, with the list's filters (issue 30 item 2): written out as they are read,
  // a thousand per statement, up to 100,000. A refused filter shows the list with its refusal.
  app.get('/transactions/export.csv', async (request, reply) => {
    const accountId = memberAccountId(request);
    const q = request.query as Record<string, string | undefined>;
    const type = KINDS.find((k) => k === q.type);
    const status = STATUSES.find((st) => st === q.status);
    let rows: AsyncIterable<Parameters<typeof transactionCsvLine>[0]>;
    try {
      rows = s.transactions.exportRows(accountId, {
        ...(type ? { type } : {}),
        ...(status ? { status } : {}),
        ...(q.startDate ? { startDate: q.startDate } : {}),
        ...(q.endDate ? { endDate: q.endDate } : {}),
      });
    } catch (error) {
      refusal(error, request.portal.lang);
      const params = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => Boolean(e[1])));
      return reply.redirect(`/portal/transactions?${params}`, 303);
    }
    async function* lines() {
      yield TRANSACTION_CSV_HEADER;
      for await (const tx of rows) yield transactionCsvLine(tx);
    }
    const name = `transactions-${q.startDate || 'last-31-days'}${q.endDate ? `-to-${q.endDate}` : ''}.csv`.replace(/[^\w.-]/g, '');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines()));
  });

  app.get('/transactions/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const tx = await s.transactions.get(accountId, (request.params as { id: string }).id);
    const [refunds, meds, deliveries, attempts] = await Promise.all([
      s.reads.refundsOf(accountId, tx.id),
      s.reads.medsOf(accountId, tx.id),
      s.reads.deliveriesOfTransaction(accountId, tx.id),
      s.reads.attemptsOfTransaction(accountId, tx.id),
    ]);
    return render(reply, <TransactionPage ctx={request.portal} tx={tx} refunds={refunds} meds={meds} deliveries={deliveries} attempts={attempts} refundable={refundableNow(tx, s.clock.now())} />);
  });
};
