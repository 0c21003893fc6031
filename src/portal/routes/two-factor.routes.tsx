/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { twoFactorRequired } from '../../services/portal/two-factor.service.ts';
import { homeOf, PRE_SESSION_COOKIE, render, secureCookies, sessionOf, type PortalRoutes } from '../context.ts';
import { field, refusal } from '../forms.ts';
import { EnrolPage, RecoveryCodesPage, SecondStepForm, SecurityPage } from '../pages/two-factor.tsx';
import { CHALLENGE_COOKIE, openSession } from './auth.routes.tsx';

/**
 * Two-factor sign-in (issue 30 item 2): the sign-in's second step, and the Security page where a
 * person turns it on (QR code, a code to prove it, recovery codes shown once) or off.
 */
export const twoFactorRoutes: PortalRoutes = (app, s) => {
  const qrOf = (uri: string) => QRCode.toDataURL(uri, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 5 });
  const toSignIn = (reply: Parameters<typeof render>[0]) => reply.redirect('/portal/sign-in', 303);

  app.get('/sign-in/second-step', async (request, reply) => {
    const challenge = request.cookies[CHALLENGE_COOKIE];
    if (!challenge || !(await s.twoFactor.findChallenge(challenge))) return toSignIn(reply);
    return render(reply, <SecondStepForm ctx={request.portal} csrf={request.cookies[PRE_SESSION_COOKIE] ?? ''} />);
  });

  app.post('/sign-in/second-step', async (request, reply) => {
    const challenge = request.cookies[CHALLENGE_COOKIE];
    const waiting = challenge ? await s.twoFactor.findChallenge(challenge) : undefined;
    if (!challenge || !waiting) return toSignIn(reply);
    const t = request.portal.t;
    try {
      await s.twoFactor.verify(waiting.user, field(request.body, 'code'), request.ip);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'authCode');
      if (refused.retryAfter) reply.header('retry-after', String(refused.retryAfter));
      const message = refused.status === 429 ? t('tooManyAttempts', { minutes: Math.ceil((refused.retryAfter ?? 60) / 60) }) : t('codeWrong');
      return render(reply, <SecondStepForm ctx={request.portal} csrf={request.cookies[PRE_SESSION_COOKIE] ?? ''} error={message} />, refused.status === 429 ? 429 : 401);
    }
    // One session per challenge: a second tab's right code finds it closed.
    if (!(await s.twoFactor.closeChallenge(challenge))) return toSignIn(reply);
    reply.clearCookie(CHALLENGE_COOKIE, { path: '/portal', httpOnly: true, sameSite: 'strict', secure: secureCookies(request) });
    return openSession(s, request, reply, waiting.user, waiting.next ?? '');
  });

  async function securityPage(request: FastifyRequest, reply: FastifyReply, extra: { error?: string; notice?: string } = {}, status = 200) {
    const user = sessionOf(request).user;
    const on = await s.twoFactor.enabled(user.id);
    return render(
      reply,
      <SecurityPage ctx={request.portal} on={on} recoveryLeft={on ? await s.twoFactor.recoveryCodesLeft(user.id) : 0} required={twoFactorRequired(s.require2fa, user.role)} {...extra} />,
      status,
    );
  }

  app.get('/security', async (request, reply) => {
    const done = (request.query as { done?: string }).done;
    return securityPage(request, reply, done === 'off' ? { notice: request.portal.t('twoFactorTurnedOff') } : {});
  });

  app.post('/security/two-factor/begin', async (request, reply) => {
    const user = sessionOf(request).user;
    try {
      const { secret, uri } = await s.twoFactor.begin(user);
      return render(reply, <EnrolPage ctx={request.portal} secret={secret} qr={await qrOf(uri)} />);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'CONFLICT') return reply.redirect('/portal/security', 303);
      throw error;
    }
  });

  app.post('/security/two-factor/confirm', async (request, reply) => {
    const user = sessionOf(request).user;
    try {
      const codes = await s.twoFactor.confirm(user, field(request.body, 'code'), request.ip);
      return render(reply, <RecoveryCodesPage ctx={request.portal} codes={codes} home={homeOf(user.role)} />);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'authCode');
      const pending = await s.twoFactor.pending(user);
      if (!pending) return reply.redirect('/portal/security', 303);
      if (refused.retryAfter) reply.header('retry-after', String(refused.retryAfter));
      const t = request.portal.t;
      const message = refused.status === 429 ? t('tooManyAttempts', { minutes: Math.ceil((refused.retryAfter ?? 60) / 60) }) : t('codeWrong');
      return render(reply, <EnrolPage ctx={request.portal} secret={pending.secret} qr={await qrOf(pending.uri)} error={message} />, refused.status === 429 ? 429 : 400);
    }
  });

  app.post('/security/two-factor/disable', async (request, reply) => {
    const user = sessionOf(request).user;
    const t = request.portal.t;
    if (twoFactorRequired(s.require2fa, user.role)) return securityPage(request, reply, { error: t('turnOffNotAllowed') }, 403);
    try {
      await s.twoFactor.disable(user, field(request.body, 'code'), request.ip);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'authCode');
      if (refused.retryAfter) reply.header('retry-after', String(refused.retryAfter));
      const message = refused.status === 429 ? t('tooManyAttempts', { minutes: Math.ceil((refused.retryAfter ?? 60) / 60) }) : t('codeWrong');
      return securityPage(request, reply, { error: message }, refused.status === 429 ? 429 : 400);
    }
    return reply.redirect('/portal/security?done=off', 303);
  });
};
