/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { TransactionStatus } from '../domain/closed-lists.ts';
import type { PortalSession } from '../services/portal/portal-sessions.service.ts';
import type { Lang, MessageKey, Translate } from './i18n.ts';

/** What every page knows about the request. */
export interface PageContext {
  lang: Lang;
  t: Translate;
  session: PortalSession | undefined;
  /** The path and query asked for (for the language switch's way back). */
  url: string;
  sandbox: boolean;
}

const MEMBER_NAV: Array<[MessageKey, string]> = [
  ['home', '/portal'],
  ['transactions', '/portal/transactions'],
  ['charges', '/portal/charges'],
  ['payouts', '/portal/payouts'],
  ['webhooks', '/portal/webhooks'],
  ['events', '/portal/events'],
  ['credentials', '/portal/credentials'],
  ['certificates', '/portal/certificates'],
  ['med', '/portal/med'],
];
const SANDBOX_NAV: [MessageKey, string] = ['sandbox', '/portal/sandbox'];
const OPERATOR_NAV: Array<[MessageKey, string]> = [
  ['accounts', '/portal/admin/accounts'],
  ['auditLog', '/portal/admin/audit'],
  ['system', '/portal/admin/system'],
  ['suspense', '/portal/admin/suspense'],
];

function Document(props: { ctx: PageContext; title: string; children: Child }) {
  return (
    <html lang={props.ctx.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${props.ctx.t('appName')}`}</title>
        <link rel="stylesheet" href="/portal/assets/portal.css" />
        <script src="/portal/assets/htmx.min.js" defer></script>
        <script src="/portal/assets/portal.js" defer></script>
      </head>
      {props.children}
    </html>
  );
}

/** Each language's name in its own words (not translated: a reader looks for their own). */
const LANGUAGES: Array<[Lang, string]> = [
  ['pt-BR', 'Português'],
  ['en', 'English'],
];

export function LanguageSwitch(props: { ctx: PageContext }) {
  const back = encodeURIComponent(props.ctx.url);
  return (
    <nav class="lang" aria-label={props.ctx.t('language')}>
      {LANGUAGES.map(([tag, name]) => (
        <a href={`/portal/language/${tag}?next=${back}`} hreflang={tag} lang={tag} aria-current={props.ctx.lang === tag ? 'true' : undefined}>
          {name}
        </a>
      ))}
    </nav>
  );
}

export function CsrfField(props: { ctx: PageContext }) {
  return <input type="hidden" name="_csrf" value={props.ctx.session?.csrfToken ?? ''} />;
}

/**
 * A row's destructive action (revoke, remove): a POST form the portal script asks to confirm
 * (data-confirm), with its CSRF field and a danger button whose accessible name says what it acts on.
 */
export function DangerAction(props: { ctx: PageContext; action: string; confirm: string; label: string; ariaLabel: string }) {
  return (
    <form method="post" action={props.action} data-confirm={props.confirm}>
      <CsrfField ctx={props.ctx} />
      <button class="danger" type="submit" aria-label={props.ariaLabel}>{props.label}</button>
    </form>
  );
}

/** A signed-in page: the navigation of the person's role, the page, sign-out. */
export function Page(props: { ctx: PageContext; title: string; active: string; children: Child }) {
  const { ctx } = props;
  const t = ctx.t;
  const nav = ctx.session?.user.role === 'OPERATOR' ? OPERATOR_NAV : ctx.sandbox ? [...MEMBER_NAV, SANDBOX_NAV] : MEMBER_NAV;
  return (
    <Document ctx={ctx} title={props.title}>
      <body hx-headers={JSON.stringify({ 'x-csrf-token': ctx.session?.csrfToken ?? '' })}>
        <a class="skip" href="#content">{t('skipToContent')}</a>
        <div class="shell">
          <header class="sidebar">
            <a class="brand" href="/portal">
              <span class="brand-mark" aria-hidden="true">PIX</span>
              {t('appName')}
            </a>
            <nav class="nav" aria-label={t('mainNav')}>
              <ul>
                {nav.map(([key, href]) => (
                  <li>
                    <a href={href} aria-current={props.active === href ? 'page' : undefined}>{t(key)}</a>
                  </li>
                ))}
              </ul>
            </nav>
            <div class="sidebar-foot">
              <span class="who">{t('signedInAs', { email: ctx.session?.user.email ?? '' })}</span>
              <a href="/portal/security" aria-current={props.active === '/portal/security' ? 'page' : undefined}>{t('security')}</a>
              <LanguageSwitch ctx={ctx} />
              <form method="post" action="/portal/sign-out">
                <CsrfField ctx={ctx} />
                <button type="submit" class="link-button">{t('signOut')}</button>
              </form>
            </div>
          </header>
          <main id="content">
            {ctx.session?.accountSuspended ? <p class="alert alert-error" id="account-suspended" role="status">{t('accountSuspendedBanner')}</p> : ''}
            {props.children}
          </main>
        </div>
      </body>
    </Document>
  );
}

/** A page outside the signed-in area (sign-in, invitation, errors before sign-in). */
export function AuthPage(props: { ctx: PageContext; title: string; children: Child }) {
  return (
    <Document ctx={props.ctx} title={props.title}>
      <body>
        <main id="content" class="auth-page">
          <div class="card auth-card">
            <div class="brand">
              <span class="brand-mark" aria-hidden="true">PIX</span>
              {props.ctx.t('appName')}
            </div>
            {props.children}
            <LanguageSwitch ctx={props.ctx} />
          </div>
        </main>
      </body>
    </Document>
  );
}

/** A transaction's status as a coloured pill with its words. */
export function StatusPill(props: { ctx: PageContext; status: TransactionStatus }) {
  return <span class={`pill pill-${props.status}`}>{props.ctx.t(props.status)}</span>;
}

/** A MED's status (and its analysis result) in the page's words. */
export function medStatusText(t: Translate, status: string, result: string | null): string {
  const label = t(`MED_${status}` as MessageKey);
  return result ? `${label} · ${t(`MED_${result}` as MessageKey)}` : label;
}
