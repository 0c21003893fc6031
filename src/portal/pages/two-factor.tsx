/** @jsxImportSource hono/jsx */
import { AuthPage, CsrfField, Page, type PageContext } from '../layout.tsx';

/** The second step of a sign-in: a code of the authenticator app, or a recovery code. */
export function SecondStepForm(props: { ctx: PageContext; csrf: string; error?: string }) {
  const t = props.ctx.t;
  return (
    <AuthPage ctx={props.ctx} title={t('secondStepTitle')}>
      <h1>{t('secondStepTitle')}</h1>
      <p class="lead">{t('secondStepLead')}</p>
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      <form class="stack" method="post" action="/portal/sign-in/second-step">
        <input type="hidden" name="_csrf" value={props.csrf} />
        <div>
          <label for="code">{t('authCode')}</label>
          <input id="code" name="code" autocomplete="one-time-code" required autofocus maxlength={20} spellcheck={false} />
        </div>
        <button class="primary" type="submit">{t('verify')}</button>
      </form>
    </AuthPage>
  );
}

/** Security: whether two-factor sign-in is on, and the way to turn it on or off. */
export function SecurityPage(props: { ctx: PageContext; on: boolean; recoveryLeft: number; required: boolean; error?: string; notice?: string }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('security')} active="/portal/security">
      <h1>{t('security')}</h1>
      {props.required && !props.on ? <div class="alert alert-error" role="alert">{t('twoFactorRequired')}</div> : null}
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
      <section class="card" style="max-width: 560px" aria-labelledby="two-factor">
        <h2 id="two-factor">{t('secondStepTitle')}</h2>
        <p id="two-factor-state">{props.on ? t('twoFactorOn', { count: props.recoveryLeft }) : t('twoFactorOff')}</p>
        {!props.on ? (
          <form method="post" action="/portal/security/two-factor/begin">
            <CsrfField ctx={ctx} />
            <button class="primary" type="submit">{t('turnOn')}</button>
          </form>
        ) : props.required ? (
          <p class="hint">{t('turnOffNotAllowed')}</p>
        ) : (
          <form class="stack" method="post" action="/portal/security/two-factor/disable">
            <CsrfField ctx={ctx} />
            <p class="hint" id="turn-off-hint">{t('turnOffHint')}</p>
            <div>
              <label for="off-code">{t('authCode')}</label>
              <input id="off-code" name="code" autocomplete="one-time-code" required maxlength={20} aria-describedby="turn-off-hint" />
            </div>
            <button class="secondary button" type="submit">{t('turnOff')}</button>
          </form>
        )}
      </section>
    </Page>
  );
}

/** Enrolment: the secret as a QR code and as text (shown until a code proves it, never after). */
export function EnrolPage(props: { ctx: PageContext; secret: string; qr: string; error?: string }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('security')} active="/portal/security">
      <h1>{t('enrolTitle')}</h1>
      <p class="lead">{t('enrolLead')}</p>
      <section class="card" style="max-width: 560px" aria-label={t('enrolTitle')}>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <img class="qr" src={props.qr} alt={t('enrolQrAlt')} />
        <dl class="details">
          <dt>{t('setupKey')}</dt>
          <dd class="mono" id="setup-key">{props.secret.replace(/(.{4})/g, '$1 ').trim()}</dd>
        </dl>
        <form class="stack" method="post" action="/portal/security/two-factor/confirm" style="margin-top: 18px">
          <CsrfField ctx={ctx} />
          <div>
            <label for="enrol-code">{t('authCode')}</label>
            <input id="enrol-code" name="code" autocomplete="one-time-code" inputmode="numeric" required maxlength={8} />
          </div>
          <button class="primary" type="submit">{t('confirmCode')}</button>
        </form>
      </section>
    </Page>
  );
}

/** The recovery codes, shown this once. */
export function RecoveryCodesPage(props: { ctx: PageContext; codes: string[]; home: string }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('security')} active="/portal/security">
      <h1>{t('recoveryTitle')}</h1>
      <p class="lead">{t('recoveryLead')}</p>
      <section class="card" style="max-width: 560px" aria-labelledby="recovery-codes">
        <h2 id="recovery-codes">{t('recoveryCodes')}</h2>
        <ul class="mono" id="recovery-code-list">
          {props.codes.map((code) => <li>{code}</li>)}
        </ul>
        <a class="button" href={props.home}>{t('continue')}</a>
      </section>
    </Page>
  );
}
