/** @jsxImportSource hono/jsx */
import { CsrfField, DangerAction, type PageContext } from '../layout.tsx';

export type Member = { id: number; email: string; active: boolean };

/** An account's members: invite by email (a link shown once), remove. */
export function AccountMembers(props: { ctx: PageContext; accountId: number; members: Member[]; invitationUrl?: string | undefined }) {
  const { ctx } = props;
  const t = ctx.t;
  const base = `/admin/accounts/${props.accountId}`;
  return (
    <section class="card table-card section" aria-labelledby="members">
      <h2 id="members">{t('members')}</h2>
      {props.invitationUrl ? (
        <div style="padding: 0 20px">
          <label for="invitation-url">{t('invitationLink')}</label>
          <div class="copy-row"><input id="invitation-url" class="mono" readonly value={props.invitationUrl} /><button type="button" class="secondary button" data-copy="invitation-url">{t('copy')}</button></div>
        </div>
      ) : null}
      {props.members.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
        <table>
          <thead><tr><th scope="col">{t('email')}</th><th scope="col">{t('status')}</th><th scope="col"><span class="skip">{t('actions')}</span></th></tr></thead>
          <tbody>
            {props.members.map((m) => (
              <tr>
                <td>{m.email}</td>
                <td>{m.active ? <span class="pill pill-ok">{t('memberActive')}</span> : <span class="pill pill-warn">{t('memberInvited')}</span>}</td>
                <td>
                  <DangerAction ctx={ctx} action={`/portal${base}/members/${m.id}/remove`} confirm={t('removeMemberConfirm')} label={t('remove')} ariaLabel={t('removeNamed', { name: m.email })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="filters" method="post" action={`/portal${base}/members`}>
        <CsrfField ctx={ctx} />
        <div><label for="member-email">{t('inviteByEmail')}</label><input id="member-email" name="email" type="email" required /></div>
        <button class="primary" type="submit">{t('invite')}</button>
      </form>
    </section>
  );
}
