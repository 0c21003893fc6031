/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PortalUser } from '../../services/portal/portal-people.service.ts';
import { CHALLENGE_TTL_MS } from '../../services/portal/two-factor.service.ts';
import type { PortalServices } from '../portal-services.ts';
import { PRE_SESSION_COOKIE, SESSION_COOKIE, homeOf, render, safeNext, secureCookies, type PortalRoutes } from '../context.ts';
import { field, refusal } from '../forms.ts';
import { AuthPage, type PageContext } from '../layout.tsx';

function SignInForm(props: { ctx: PageContext; csrf: string; next: string; email?: string; error?: string; notice?: string }) {
  const t = props.ctx.t;
  return (
    <AuthPage ctx={props.ctx} title={t('signIn')}>
      <h1>{t('signInTitle')}</h1>
      <p class="lead">{t('signInLead')}</p>
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
      <form class="stack" method="post" action="/portal/sign-in">
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <div>
          <label for="email">{t('email')}</label>
          <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ''} />
        </div>
        <div>
          <label for="password">{t('password')}</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <button class="primary" type="submit">{t('signIn')}</button>
      </form>
    </AuthPage>
  );
}

function InvitationForm(props: { ctx: PageContext; csrf: string; token: string; account: string; error?: string }) {
  const t = props.ctx.t;
  return (
    <AuthPage ctx={props.ctx} title={t('setPassword')}>
      <h1>{t('invitationTitle')}</h1>
      <p class="lead">{t('invitationLead', { account: props.account })}</p>
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      <form class="stack" method="post" action={`/portal/invitations/${props.token}`}>
        <input type="hidden" name="_csrf" value={props.csrf} />
        <div>
          <label for="password">{t('password')}</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength={12} required aria-describedby="password-hint" />
          <p class="hint" id="password-hint">{t('passwordTooShort')}</p>
        </div>
        <button class="primary" type="submit">{t('setPassword')}</button>
      </form>
    </AuthPage>
  );
}

/** The browser's half of a sign-in waiting for its second step. */
export const CHALLENGE_COOKIE = 'pix_portal_2fa';

/** Signs the person in: a fresh session id (no fixation; the old one, if any, ends), then where they were going. */
export async function openSession(s: PortalServices, request: FastifyRequest, reply: FastifyReply, user: PortalUser, next: string) {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await s.portalSessions.revoke(previous);
  const session = await s.portalSessions.open(user, request.ip);
  reply.setCookie(SESSION_COOKIE, session.id, { path: '/portal', httpOnly: true, sameSite: 'lax', secure: secureCookies(request) });
  return reply.redirect(safeNext(next, homeOf(user.role)), 303);
}

export const authRoutes: PortalRoutes = (app, s) => {
  app.get('/sign-in', async (request, reply) => {
    const q = request.query as { next?: string; done?: string };
    if (request.portal.session) return reply.redirect(safeNext(q.next, homeOf(request.portal.session.user.role)), 303);
    const notice = q.done === 'password' ? request.portal.t('passwordSet') : undefined;
    return render(reply, <SignInForm ctx={request.portal} csrf={request.cookies[PRE_SESSION_COOKIE] ?? ''} next={safeNext(q.next, '')} notice={notice} />);
  });

  app.post('/sign-in', async (request, reply) => {
    const email = field(request.body, 'email');
    const next = field(request.body, 'next');
    try {
      const user = await s.portalPeople.signIn(email, field(request.body, 'password'), request.ip);
      // With two-factor sign-in on, the right password only opens the second step.
      if (await s.twoFactor.enabled(user.id)) {
        const challenge = await s.twoFactor.openChallenge(user, safeNext(next, '') || null, request.ip);
        reply.setCookie(CHALLENGE_COOKIE, challenge, { path: '/portal', httpOnly: true, sameSite: 'strict', secure: secureCookies(request), maxAge: CHALLENGE_TTL_MS / 1000 });
        return reply.redirect('/portal/sign-in/second-step', 303);
      }
      return await openSession(s, request, reply, user, next);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      const t = request.portal.t;
      const message = refused.status === 429 ? t('tooManyAttempts', { minutes: Math.ceil((refused.retryAfter ?? 60) / 60) }) : refused.status === 400 ? refused.message : t('badCredentials');
      if (refused.retryAfter) reply.header('retry-after', String(refused.retryAfter));
      const csrf = request.cookies[PRE_SESSION_COOKIE] ?? '';
      return render(reply, <SignInForm ctx={request.portal} csrf={csrf} next={safeNext(next, '')} email={email} error={message} />, refused.status === 429 ? 429 : 401);
    }
  });

  app.post('/sign-out', async (request, reply) => {
    const id = request.cookies[SESSION_COOKIE];
    if (id) await s.portalSessions.revoke(id);
    reply.clearCookie(SESSION_COOKIE, { path: '/portal', httpOnly: true, sameSite: 'lax', secure: secureCookies(request) });
    return reply.redirect('/portal/sign-in', 303);
  });

  app.get('/invitations/:token', async (request, reply) => {
    const token = (request.params as { token: string }).token;
    const invited = await s.portalPeople.openInvitation(token);
    if (!invited) return invalidInvitation(request.portal, reply);
    const account = await s.accounts.get(invited.accountId!);
    return render(reply, <InvitationForm ctx={request.portal} csrf={request.cookies[PRE_SESSION_COOKIE] ?? ''} token={token} account={account.name} />);
  });

  app.post('/invitations/:token', async (request, reply) => {
    const token = (request.params as { token: string }).token;
    const invited = await s.portalPeople.openInvitation(token);
    if (!invited) return invalidInvitation(request.portal, reply);
    const password = field(request.body, 'password');
    const csrf = request.cookies[PRE_SESSION_COOKIE] ?? '';
    if (password.length < 12) {
      const account = await s.accounts.get(invited.accountId!);
      return render(reply, <InvitationForm ctx={request.portal} csrf={csrf} token={token} account={account.name} error={request.portal.t('passwordTooShort')} />, 400);
    }
    try {
      await s.portalPeople.acceptInvitation(token, password, request.ip);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      if (refused.status === 404) return invalidInvitation(request.portal, reply);
      const account = await s.accounts.get(invited.accountId!);
      return render(reply, <InvitationForm ctx={request.portal} csrf={csrf} token={token} account={account.name} error={refused.message} />, refused.status);
    }
    return reply.redirect('/portal/sign-in?done=password', 303);
  });
};

function invalidInvitation(ctx: PageContext, reply: Parameters<typeof render>[0]) {
  return render(
    reply,
    <AuthPage ctx={ctx} title={ctx.t('setPassword')}>
      <h1>{ctx.t('setPassword')}</h1>
      <div class="alert alert-error" role="alert">{ctx.t('invitationInvalid')}</div>
    </AuthPage>,
    404,
  );
}
