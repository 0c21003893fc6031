/** @jsxImportSource hono/jsx */
import { memberAccountId, render, type PortalRoutes } from '../context.ts';
import { Page } from '../layout.tsx';
import { BalanceCards } from '../pages/balance.tsx';
import { TransactionTable } from '../pages/transactions.tsx';

/** The member's home: the account, its balance and latest transactions (operators go to their accounts list). */
export const homeRoutes: PortalRoutes = (app, s) => {
  app.get('/', async (request, reply) => {
    const session = request.portal.session!;
    if (session.user.role === 'OPERATOR') return reply.redirect('/portal/admin/accounts', 303);
    const accountId = memberAccountId(request);
    const [account, latest] = await Promise.all([s.accounts.get(accountId), s.reads.latestTransactions(accountId, 10)]);
    const ctx = request.portal;
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
};
