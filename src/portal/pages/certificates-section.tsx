/** @jsxImportSource hono/jsx */
import { dateTime } from '../format.ts';
import { CsrfField, DangerAction, type PageContext } from '../layout.tsx';

type CertificateRow = { fingerprint: string; subject: string; not_after: Date; revoked_at: Date | null };

/** The account's client certificates: register one (or a CSR to sign), have one made, list, revoke. */
export function CertificatesSection(props: { ctx: PageContext; base: string; rows: CertificateRow[]; now: Date; made?: { certificatePem: string; privateKeyPem?: string }; error?: string }) {
  const { ctx } = props;
  const t = ctx.t;
  const rows = props.rows;
  return (
    <>
      {props.made ? (
        <section class="card section alert-info" aria-labelledby="made-cert">
          <h2 id="made-cert">{props.made.privateKeyPem ? t('newKeyAndCertificate') : t('requestSigned')}</h2>
          {props.made.privateKeyPem ? <p class="hint">{t('downloadKeyNow')}</p> : null}
          <p>
            <a class="button" download="client-cert.pem" href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(props.made.certificatePem)}`}>{t('downloadCertificate')}</a>{' '}
            {props.made.privateKeyPem ? (
              <a class="button" download="client-key.pem" href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(props.made.privateKeyPem)}`}>{t('downloadPrivateKey')}</a>
            ) : null}
          </p>
        </section>
      ) : null}
      <div class="grid-2 section">
        <section class="card" aria-labelledby="upload-cert">
          <h2 id="upload-cert">{t('registerCertificate')}</h2>
          {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
          <form class="stack" method="post" action={`${props.base}/certificates`} enctype="multipart/form-data">
            <CsrfField ctx={ctx} />
            <div>
              <label for="pem">{t('pemLabel')}</label>
              <textarea id="pem" name="pem" placeholder="-----BEGIN CERTIFICATE-----" aria-describedby="pem-hint"></textarea>
              <p class="hint" id="pem-hint">{t('pemHint')}</p>
            </div>
            <div>
              <label for="pemFile">{t('pemFileLabel')}</label>
              <input id="pemFile" name="pemFile" type="file" accept=".pem,.crt,.cer,.csr,.req,application/x-pem-file" />
            </div>
            <button class="primary" type="submit">{t('register')}</button>
          </form>
        </section>
        <section class="card" aria-labelledby="make-cert">
          <h2 id="make-cert">{t('haveOneMade')}</h2>
          <p class="hint">{t('haveOneMadeHint')}</p>
          <form method="post" action={`${props.base}/certificates/make`}>
            <CsrfField ctx={ctx} />
            <button class="secondary button" type="submit">{t('makeKeyAndCertificate')}</button>
          </form>
        </section>
      </div>
      <section class="card table-card section" aria-labelledby="cert-list">
        <h2 id="cert-list">{t('certificates')}</h2>
        {rows.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">{t('fingerprint')}</th><th scope="col" class="hide-phone">{t('subject')}</th><th scope="col">{t('validUntil')}</th><th scope="col">{t('status')}</th><th scope="col"><span class="skip">{t('actions')}</span></th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <td class="mono">{r.fingerprint}</td>
                  <td class="hide-phone">{r.subject}</td>
                  <td>{dateTime(r.not_after, ctx.lang)}</td>
                  <td>{r.revoked_at ? <span class="pill pill-muted">{t('certificateRevoked')}</span> : r.not_after < props.now ? <span class="pill pill-bad">{t('certificateExpired')}</span> : <span class="pill pill-ok">{t('certificateActive')}</span>}</td>
                  <td>
                    {r.revoked_at ? null : (
                      <DangerAction ctx={ctx} action={`${props.base}/certificates/${r.fingerprint}/revoke`} confirm={t('revokeCertificateConfirm')} label={t('revoke')} ariaLabel={t('revokeNamed', { name: r.fingerprint.slice(0, 12) })} />
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
