/** @jsxImportSource hono/jsx */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PortalServices } from './portal-services.ts';
import { toProblem } from '../http/errors/problem.ts';
import { PRE_SESSION_COOKIE, SESSION_COOKIE, render, secureCookies, type PortalRoutes } from './context.ts';
import { refusalText } from './forms.ts';
import { chooseLang, isLang, LANG_COOKIE, translator } from './i18n.ts';
import { AuthPage, Page, type PageContext } from './layout.tsx';
import { adminAccountsRoutes } from './routes/admin-accounts.routes.tsx';
import { auditRoutes } from './routes/audit.routes.tsx';
import { systemRoutes } from './routes/system.routes.tsx';
import { authRoutes } from './routes/auth.routes.tsx';
import { chargesRoutes } from './routes/charges.routes.tsx';
import { homeRoutes } from './routes/home.routes.tsx';
import { integrationRoutes } from './routes/integration.routes.tsx';
import { medRoutes } from './routes/med.routes.tsx';
import { payoutsRoutes } from './routes/payouts.routes.tsx';
import { sandboxRoutes } from './routes/sandbox.routes.tsx';
import { transactionsRoutes } from './routes/transactions.routes.tsx';
import { refundsRoutes } from './routes/refunds.routes.tsx';
import { twoFactorRoutes } from './routes/two-factor.routes.tsx';
import { twoFactorRequired } from '../services/portal/two-factor.service.ts';
import { suspenseRoutes } from './routes/suspense.routes.tsx';
import { eventsRoutes } from './routes/events.routes.tsx';
import { noteErrorCode } from '../http/access-log.ts';

const require = createRequire(import.meta.url);
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'portal.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/portal.css', import.meta.url)) },
  'htmx.min.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(require.resolve('htmx.org/dist/htmx.min.js')) },
  'portal.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/portal.js', import.meta.url)) },
};

/** Pages reachable without a session. */
const PUBLIC_PATHS = [/^\/portal\/sign-in$/, /^\/portal\/sign-in\/second-step$/, /^\/portal\/invitations\/[^/]+$/, /^\/portal\/assets\//, /^\/portal\/language\//];

/** What a person who must turn two-factor sign-in on (PORTAL_REQUIRE_2FA) may open before doing so. */
const ENROLMENT_PATHS = [/^\/portal\/security$/, /^\/portal\/security\/two-factor\/(begin|confirm)$/, /^\/portal\/sign-out$/, /^\/portal\/assets\//, /^\/portal\/language\//];

/** One file per page or group of pages; member pages first, then the operators'. */
const ROUTES: PortalRoutes[] = [authRoutes, twoFactorRoutes, homeRoutes, transactionsRoutes, refundsRoutes, medRoutes, chargesRoutes, payoutsRoutes, integrationRoutes, sandboxRoutes, adminAccountsRoutes, auditRoutes, systemRoutes, suspenseRoutes, eventsRoutes];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The web portal at /portal: server-rendered pages (hono/jsx to strings) with htmx for partial
 * updates, sessions in an httpOnly cookie, CSRF tokens on every state-changing request.
 */
export async function portalPlugin(app: FastifyInstance, s: PortalServices) {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 256 * 1024 });
  // File uploads (a certificate or CSR in PEM): parsed before the CSRF check, which reads `_csrf` from the fields.
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 64 * 1024, files: 1, fields: 10, parts: 11 } });

  app.decorateRequest('portal', null as unknown as PageContext);

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const lang = chooseLang(request.cookies[LANG_COOKIE], request.headers['accept-language']);
    const sessionId = request.cookies[SESSION_COOKIE];
    const session = sessionId ? await s.portalSessions.find(sessionId) : undefined;
    request.portal = { lang, t: translator(lang), session, url: request.url, sandbox: s.sandboxMode };
    // A member's pages and actions run on the account's time (its test clock, when it is on one).
    if (session?.user.role === 'MEMBER' && session.user.accountId !== null) await s.testClocks.enter(session.user.accountId);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'");
    if (!session && !PUBLIC_PATHS.some((p) => p.test(path))) {
      if (sessionId) reply.clearCookie(SESSION_COOKIE, { path: '/portal' });
      const target = `/portal/sign-in?next=${encodeURIComponent(request.url)}`;
      if (request.headers['hx-request']) return reply.header('hx-redirect', target).code(401).send();
      return reply.redirect(target, 303);
    }
    // PORTAL_REQUIRE_2FA: a person who must have two-factor sign-in and has not is led to turn it on first.
    if (session && !session.twoFactor && twoFactorRequired(s.require2fa, session.user.role) && !ENROLMENT_PATHS.some((p) => p.test(path))) {
      if (request.headers['hx-request']) return reply.header('hx-redirect', '/portal/security').code(403).send();
      return reply.redirect('/portal/security', 303);
    }
    // The pre-session CSRF token (double submit): set once for the forms shown without a session.
    if (!session && !request.cookies[PRE_SESSION_COOKIE]) {
      const token = randomBytes(24).toString('base64url');
      request.cookies[PRE_SESSION_COOKIE] = token;
      reply.setCookie(PRE_SESSION_COOKIE, token, { path: '/portal', httpOnly: true, sameSite: 'strict', secure: secureCookies(request) });
    }
  });

  // CSRF: every state-changing request carries the session's token (form field or htmx header), or,
  // before sign-in, the token of the pre-session cookie. SameSite=Lax is a second line, not the only one.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const body = request.body as Record<string, unknown> | undefined;
    const sent = String(request.headers['x-csrf-token'] ?? body?._csrf ?? '');
    const expected = request.portal.session?.csrfToken ?? request.cookies[PRE_SESSION_COOKIE] ?? '';
    if (!expected || !sent || !same(sent, expected)) {
      const { ctx, t } = { ctx: request.portal, t: request.portal.t };
      return render(reply, <ErrorPage ctx={ctx} title={t('forbiddenTitle')} lead={t('forbiddenLead')} />, 403);
    }
  });

  app.get('/assets/:name', async (request, reply) => {
    const asset = ASSETS[(request.params as { name: string }).name];
    if (!asset) return notFound(request, reply);
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });

  app.get('/language/:lang', async (request, reply) => {
    const lang = (request.params as { lang: string }).lang;
    if (!isLang(lang)) return notFound(request, reply);
    reply.setCookie(LANG_COOKIE, lang, { path: '/portal', sameSite: 'lax', maxAge: 365 * 86400, secure: secureCookies(request) });
    const next = String((request.query as { next?: string }).next ?? '/portal');
    return reply.redirect(/^\/portal(\/|$|\?)/.test(next) && !next.startsWith('//') ? next : '/portal', 303);
  });

  for (const routes of ROUTES) routes(app, s);

  app.setNotFoundHandler((request, reply) => notFound(request, reply));
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    noteErrorCode(request, problem.catalogueCode);
    const ctx = request.portal ?? { lang: 'pt-BR', t: translator('pt-BR'), session: undefined, url: request.url, sandbox: false };
    if (problem.status === 404) return notFound(request, reply);
    if (problem.unexpected || problem.status >= 500) {
      request.log.error({ err: error, errorId: request.id }, 'portal page failed');
      if (problem.headers) reply.headers(problem.headers);
      return render(reply, <ErrorPage ctx={ctx} title={ctx.t('errorTitle')} lead={ctx.t('errorLead', { id: String(request.id) })} />, problem.status >= 500 ? problem.status : 500);
    }
    if (problem.headers) reply.headers(problem.headers);
    const message = refusalText(problem, ctx.lang);
    return render(reply, <ErrorPage ctx={ctx} title={ctx.t('forbiddenTitle')} lead={message} />, problem.status);
  });

  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const ctx = request.portal;
    return render(reply, <ErrorPage ctx={ctx} title={ctx.t('notFoundTitle')} lead={ctx.t('notFoundLead')} />, 404);
  }
}

function ErrorPage(props: { ctx: PageContext; title: string; lead: string }) {
  const body = (
    <>
      <h1>{props.title}</h1>
      <p class="lead">{props.lead}</p>
      <a class="button" href="/portal">{props.ctx.t('home')}</a>
    </>
  );
  return props.ctx.session ? (
    <Page ctx={props.ctx} title={props.title} active="">{body}</Page>
  ) : (
    <AuthPage ctx={props.ctx} title={props.title}>{body}</AuthPage>
  );
}
