/** @jsxImportSource hono/jsx */
import { maskDocument } from '../../domain/documents.ts';
import { brl } from '../format.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';

type AccountSummary = Awaited<ReturnType<PortalReads['searchAccounts']>>[number];

/** The operators' accounts list: search, open one, create one. */
export function AccountsPage(props: { ctx: PageContext; q: string; rows: AccountSummary[]; error?: string; form?: Record<string, string> }) {
  const { ctx } = props;
  const t = ctx.t;
  const rows = props.rows;
  return (
    <Page ctx={ctx} title={t('accounts')} active="/portal/admin/accounts">
      <h1>{t('accounts')}</h1>
      <p class="lead">{t('accountsLead')}</p>
      <section class="card table-card section">
        <form class="filters" method="get" action="/portal/admin/accounts" role="search">
          <div>
            <label for="q">{t('searchAccounts')}</label>
            <input id="q" name="q" type="search" value={props.q} />
          </div>
          <button class="primary" type="submit">{t('search')}</button>
        </form>
        {rows.length === 0 ? <p class="empty">{t('noAccountFound')}</p> : (
          <table>
            <thead><tr><th scope="col">Id</th><th scope="col">{t('name')}</th><th scope="col" class="hide-phone">{t('document')}</th><th scope="col" class="num">{t('available')}</th></tr></thead>
            <tbody>
              {rows.map((a) => (
                <tr>
                  <td>{a.id}</td>
                  <td><a href={`/portal/admin/accounts/${a.id}`}>{a.name}</a></td>
                  <td class="hide-phone mono">{maskDocument(a.document)}</td>
                  <td class="num">{brl(a.available)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card section" style="max-width: 560px" aria-labelledby="new-account">
        <h2 id="new-account">{t('newAccount')}</h2>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <form class="stack" method="post" action="/portal/admin/accounts">
          <CsrfField ctx={ctx} />
          <div><label for="name">{t('name')}</label><input id="name" name="name" required maxlength={100} value={props.form?.name ?? ''} /></div>
          <div><label for="document">CPF / CNPJ</label><input id="document" name="document" required maxlength={18} value={props.form?.document ?? ''} /></div>
          <button class="primary" type="submit">{t('createAccount')}</button>
        </form>
      </section>
    </Page>
  );
}
