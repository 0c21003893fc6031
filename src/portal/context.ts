import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PortalServices } from './portal-services.ts';
import type { PortalRole } from '../domain/closed-lists.ts';
import { DomainError } from '../domain/errors/domain-error.ts';
import type { PortalSession } from '../services/portal/portal-sessions.service.ts';
import type { PageContext } from './layout.tsx';

export const SESSION_COOKIE = 'pix_portal_session';
/** Double-submit token of the forms shown before a session exists (sign-in, invitation). */
export const PRE_SESSION_COOKIE = 'pix_portal_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    portal: PageContext;
  }
}

/** A portal route file: registers its pages on the portal's scope, with the services they use (never the database). */
export type PortalRoutes = (app: FastifyInstance, s: PortalServices) => void;

/** A JSX element as HTML text; async components make toString() answer a promise. */
async function htmlOf(page: unknown): Promise<string> {
  const node = await page;
  return String(await (node as { toString(): string | Promise<string> }).toString());
}

/** Renders a page (a JSX element) as the answer. */
export async function render(reply: FastifyReply, page: unknown, status = 200) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send('<!doctype html>' + (await htmlOf(page)));
}

/** The signed-in session; a request without one never gets here (the scope's hook redirects it). */
export function sessionOf(request: FastifyRequest): PortalSession {
  const session = request.portal.session;
  if (!session) throw new DomainError('UNAUTHORIZED');
  return session;
}

/** The member's own account id; operators and anyone else get a 404 (no hint that the page exists). */
export function memberAccountId(request: FastifyRequest): number {
  const user = sessionOf(request).user;
  if (user.role !== 'MEMBER' || user.accountId === null) throw new DomainError('NOT_FOUND');
  return user.accountId;
}

export function requireOperator(request: FastifyRequest) {
  const user = sessionOf(request).user;
  if (user.role !== 'OPERATOR') throw new DomainError('NOT_FOUND');
  return user;
}

/** The actor of a change made by the signed-in person, for the audit log. */
export function actorOf(request: FastifyRequest) {
  const user = sessionOf(request).user;
  return { actor: `${user.role === 'OPERATOR' ? 'operator' : 'member'}:${user.id}`, email: user.email, address: request.ip };
}

/** A local portal path to go back to after sign-in; anything else (other sites, `//host`) is dropped. */
export function safeNext(next: unknown, fallback: string): string {
  return typeof next === 'string' && /^\/portal(\/[^\s\\]*)?(\?[^\s\\]*)?$/.test(next) && !next.startsWith('//') ? next : fallback;
}

/** Where a person lands after signing in. */
export const homeOf = (role: PortalRole) => (role === 'OPERATOR' ? '/portal/admin/accounts' : '/portal');

/** `Secure` everywhere but on a loopback host (the sandbox on a developer's machine). */
export function secureCookies(request: FastifyRequest): boolean {
  return !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(request.hostname.replace(/:\d+$/, ''));
}
