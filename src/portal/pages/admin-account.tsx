/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import { maskDocument } from '../../domain/documents.ts';
import { Page, type PageContext } from '../layout.tsx';
import { AccountMembers, type Member } from './account-members.tsx';
import { AccountSettings } from './account-settings.tsx';
import { BalanceCards } from './balance.tsx';

/** One account for operators: balance, limits and fees, members, then its integration settings (children). */
export function AccountPage(props: { ctx: PageContext; account: AccountRow; members: Member[]; notice?: string; error?: string; invitationUrl?: string; children?: Child }) {
  const { ctx, account: a } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={a.name} active="/portal/admin/accounts">
      <div class="page-head">
        <div>
          <h1>{a.name}</h1>
          <p class="lead">#{a.id} · <span class="mono">{maskDocument(a.document)}</span> · {t('pixKey')} <span class="mono">{a.pix_key}</span></p>
        </div>
      </div>
      {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      <BalanceCards ctx={ctx} available={a.available} blocked={a.blocked} />
      <AccountSettings ctx={ctx} account={a} />
      <AccountMembers ctx={ctx} accountId={a.id} members={props.members} invitationUrl={props.invitationUrl} />
      {props.children}
    </Page>
  );
}
