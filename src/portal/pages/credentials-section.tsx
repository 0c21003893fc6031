/** @jsxImportSource hono/jsx */
import { dateTime } from '../format.ts';
import { CsrfField, DangerAction, type PageContext } from '../layout.tsx';

type CredentialRow = { client_id: string; scopes: string; created_at: Date; revoked_at: Date | null };

/** The account's client credentials: create one (its secret shown once), list, revoke. */
export function CredentialsSection(props: { ctx: PageContext; base: string; rows: CredentialRow[]; created?: { clientId: string; clientSecret: string } }) {
  const { ctx } = props;
  const t = ctx.t;
  const rows = props.rows;
  return (
    <>
      {props.created ? (
        <section class="card section alert-info" aria-labelledby="created-credential">
          <h2 id="created-credential">{t('newCredential')}</h2>
          <p class="hint">{t('secretShownOnce')}</p>
          <label for="client-id">clientId</label>
          <div class="copy-row"><input id="client-id" class="mono" readonly value={props.created.clientId} /><button type="button" class="secondary button" data-copy="client-id">{t('copy')}</button></div>
          <label for="client-secret" style="margin-top: 10px">clientSecret</label>
          <div class="copy-row"><input id="client-secret" class="mono" readonly value={props.created.clientSecret} /><button type="button" class="secondary button" data-copy="client-secret">{t('copy')}</button></div>
        </section>
      ) : null}
      <section class="card table-card section" aria-labelledby="credential-list">
        <div class="page-head" style="padding: 16px 20px 0; margin: 0">
          <h2 id="credential-list">{t('clientCredentials')}</h2>
          <form method="post" action={`${props.base}/credentials`}>
            <CsrfField ctx={ctx} />
            <button class="primary" type="submit">{t('createCredential')}</button>
          </form>
        </div>
        {rows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">clientId</th><th scope="col" class="hide-phone">{t('scopes')}</th><th scope="col">{t('createdAt')}</th><th scope="col">{t('status')}</th><th scope="col"><span class="skip">{t('actions')}</span></th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <td class="mono">{r.client_id}</td>
                  <td class="hide-phone">{r.scopes}</td>
                  <td>{dateTime(r.created_at, ctx.lang)}</td>
                  <td>{r.revoked_at ? <span class="pill pill-muted">{t('credentialRevoked')}</span> : <span class="pill pill-ok">{t('credentialActive')}</span>}</td>
                  <td>
                    {r.revoked_at ? null : (
                      <DangerAction ctx={ctx} action={`${props.base}/credentials/${r.client_id}/revoke`} confirm={t('revokeCredentialConfirm')} label={t('revoke')} ariaLabel={t('revokeNamed', { name: r.client_id })} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
