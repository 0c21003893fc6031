/** @jsxImportSource hono/jsx */
import { centsFromNumber } from '../../domain/money.ts';
import { memberAccountId, render, type PortalRoutes } from '../context.ts';
import { brl, dateTime } from '../format.ts';
import { medStatusText, Page } from '../layout.tsx';
import { isFinalMedStatus } from '../../services/med/med-state-machine.ts';

const MED_ANALYSIS_DAYS = 7;

/** The infractions (MED) opened against PIX the member received, with each analysis' due date. */
export const medRoutes: PortalRoutes = (app, s) => {
  app.get('/med', async (request, reply) => {
    const accountId = memberAccountId(request);
    const q = request.query as { page?: string };
    const page = /^[1-9]\d{0,6}$/.test(q.page ?? '') ? Number(q.page) : 1;
    const result = await s.meds.list(accountId, {}, page, 25);
    // The account's time (its test clock's, when it is on one) says which analyses are overdue.
    const now = s.clock.now();
    const ctx = request.portal;
    const t = ctx.t;
    return render(
      reply,
      <Page ctx={ctx} title={t('med')} active="/portal/med">
        <h1>{t('medTitle')}</h1>
        <p class="lead">{t('medLead')}</p>
        <section class="card table-card">
          {result.data.length === 0 ? <p class="empty">{t('medNone')}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('medOpenedAt')}</th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col" class="hide-phone">{t('requestingBank')}</th>
                  <th scope="col">{t('analysisDue')}</th>
                  <th scope="col" class="num">{t('amount')}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.map((m) => {
                  const opened = new Date(m.createdAt);
                  const due = new Date(opened.getTime() + MED_ANALYSIS_DAYS * 86_400_000);
                  const open = !isFinalMedStatus(m.status);
                  return (
                    <tr>
                      <td>
                        {m.originalTransactionId ? <a href={`/portal/transactions/${m.originalTransactionId}`}>{dateTime(opened, ctx.lang)}</a> : dateTime(opened, ctx.lang)}
                      </td>
                      <td><span class={`pill ${open ? 'pill-warn' : m.analysisResult === 'APPROVED' ? 'pill-bad' : 'pill-muted'}`}>{medStatusText(t, m.status, m.analysisResult)}</span></td>
                      <td class="hide-phone">{m.requestingBank.name}</td>
                      <td>
                        {open ? dateTime(due, ctx.lang) : '—'}
                        {open && due.getTime() <= now.getTime() ? <> <span class="pill pill-bad">{t('analysisOverdue')}</span></> : null}
                      </td>
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
};
