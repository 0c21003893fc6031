import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebhookHeader } from '../../db/schema/webhooks.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { recordAs } from '../../services/audit/audit-log.ts';
import { actorOf, type PortalRoutes } from '../context.ts';
import { field, refusal, uploadedText } from '../forms.ts';
import { EVENTS } from '../pages/webhooks-section.tsx';
import type { PortalServices } from '../portal-services.ts';
import type { Section } from './integration-sections.tsx';

/** Parses "Name: value" lines; a line without a colon is an error naming it. */
function parseHeaders(text: string): WebhookHeader[] | string {
  const headers: WebhookHeader[] = [];
  for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf(':');
    if (at <= 0) return `headers: "${line.slice(0, 40)}" must be "Name: value"`;
    headers.push({ key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() });
  }
  return headers;
}

/**
 * Registers the POST actions under `base` for the account `accountOf(request)` picks; `show`
 * re-renders the page of a section with a result (created secret, made key, an error).
 */
export function registerIntegrationActions(
  app: Parameters<PortalRoutes>[0],
  s: PortalServices,
  base: string,
  accountOf: (request: FastifyRequest) => Promise<number> | number,
  show: (request: FastifyRequest, reply: FastifyReply, section: Section, extra: Record<string, unknown>, status?: number) => Promise<unknown>,
) {
  const back = (request: FastifyRequest, section: string) => `/portal${base.replace(/:id/, String((request.params as { id?: string }).id ?? ''))}/${section}`;

  app.post(`${base}/webhooks`, async (request, reply) => {
    const accountId = await accountOf(request);
    const eventType = EVENTS.find((e) => e === field(request.body, 'eventType'));
    const headers = parseHeaders(field(request.body, 'headers'));
    if (!eventType) return show(request, reply, 'webhooks', { error: 'eventType must be one of: ' + EVENTS.join(', ') }, 400);
    if (typeof headers === 'string') return show(request, reply, 'webhooks', { error: headers }, 400);
    try {
      await s.webhooks.register(accountId, { eventType, url: field(request.body, 'url').trim(), headers }, recordAs(s.audit, actorOf(request), 'webhook.register'));
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, 'webhooks', { error: refused.message }, refused.status);
    }
    return reply.redirect(back(request, 'webhooks'), 303);
  });

  app.post(`${base}/webhooks/:webhookId/remove`, async (request, reply) => {
    const accountId = await accountOf(request);
    const webhookId = Number((request.params as { webhookId: string }).webhookId);
    // remove() takes any id: check it is this account's first, so a foreign id is a 404.
    const own = (await s.webhooks.list(accountId)).some((w) => w.id === webhookId);
    if (!own) throw new DomainError('NOT_FOUND');
    await s.webhooks.remove(webhookId, recordAs(s.audit, actorOf(request), 'webhook.remove'));
    return reply.redirect(back(request, 'webhooks'), 303);
  });

  app.post(`${base}/webhooks/secret`, async (request, reply) => {
    const accountId = await accountOf(request);
    return show(request, reply, 'webhooks', { secret: await s.webhooks.secretOf(accountId) });
  });

  app.post(`${base}/webhooks/secret/rotate`, async (request, reply) => {
    const accountId = await accountOf(request);
    const rotated = await s.webhooks.rotateSecret(accountId, recordAs(s.audit, actorOf(request), 'webhook-secret.rotate'));
    return show(request, reply, 'webhooks', { secret: rotated.secret, rotatedUntil: rotated.previousSecretValidUntil });
  });

  app.post(`${base}/webhooks/test`, async (request, reply) => {
    const accountId = await accountOf(request);
    const event = EVENTS.find((e) => e === field(request.body, 'event'));
    if (!event) return show(request, reply, 'webhooks', { testError: 'event must be one of: ' + EVENTS.join(', ') }, 400);
    try {
      const sent = await s.webhookTests.send(accountId, event, recordAs(s.audit, actorOf(request), 'webhook.test'));
      return show(request, reply, 'webhooks', { tested: { event, attempts: sent.attempts } });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, 'webhooks', { testError: refused.message }, refused.status);
    }
  });

  app.post(`${base}/credentials`, async (request, reply) => {
    const accountId = await accountOf(request);
    const created = await s.credentials.create(accountId, {}, recordAs(s.audit, actorOf(request), 'credential.create'));
    return show(request, reply, 'credentials', { created }, 201);
  });

  app.post(`${base}/credentials/:clientId/revoke`, async (request, reply) => {
    const accountId = await accountOf(request);
    await s.credentials.revoke(accountId, (request.params as { clientId: string }).clientId, recordAs(s.audit, actorOf(request), 'credential.revoke'));
    return reply.redirect(back(request, 'credentials'), 303);
  });

  app.post(`${base}/certificates`, async (request, reply) => {
    const accountId = await accountOf(request);
    // An uploaded file wins over the text box; either way the same service checks the PEM.
    const pem = uploadedText(request.body, 'pemFile') || field(request.body, 'pem');
    try {
      if (pem.includes('CERTIFICATE REQUEST-----')) {
        const signed = await s.certificates.signRequest(accountId, pem, recordAs(s.audit, actorOf(request), 'certificate.sign-request'));
        return show(request, reply, 'certificates', { made: { certificatePem: signed.certificatePem } }, 201);
      }
      await s.certificates.register(accountId, pem, recordAs(s.audit, actorOf(request), 'certificate.register'));
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, 'certificates', { error: refused.message }, refused.status);
    }
    return reply.redirect(back(request, 'certificates'), 303);
  });

  app.post(`${base}/certificates/make`, async (request, reply) => {
    const accountId = await accountOf(request);
    const made = await s.certificates.make(accountId, recordAs(s.audit, actorOf(request), 'certificate.make'));
    return show(request, reply, 'certificates', { made }, 201);
  });

  app.post(`${base}/certificates/:fingerprint/revoke`, async (request, reply) => {
    const accountId = await accountOf(request);
    const fingerprint = (request.params as { fingerprint: string }).fingerprint;
    const own = (await s.certificates.list(accountId)).some((r) => r.fingerprint === fingerprint);
    if (!own) throw new DomainError('NOT_FOUND');
    await s.certificates.revoke(fingerprint, recordAs(s.audit, actorOf(request), 'certificate.revoke'));
    return reply.redirect(back(request, 'certificates'), 303);
  });
}
