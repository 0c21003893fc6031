/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { memberAccountId, render, type PortalRoutes } from '../context.ts';
import { field, refusal } from '../forms.ts';
import { Page } from '../layout.tsx';
import { DeliveryLog } from '../pages/delivery-log.tsx';
import { registerIntegrationActions } from './integration-actions.ts';
import { IntegrationSection, SECTIONS, type Section } from './integration-sections.tsx';

/** The member's integration pages: webhooks (with the delivery log), credentials, certificates. */
export const integrationRoutes: PortalRoutes = (app, s) => {
  async function show(request: FastifyRequest, reply: FastifyReply, section: Section, extra: Record<string, unknown> = {}, status = 200) {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const attempts = section === 'webhooks' ? await s.reads.recentAttempts(accountId, 25) : undefined;
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t(section)} active={`/portal/${section}`}>
        <h1>{ctx.t(section)}</h1>
        <IntegrationSection s={s} ctx={ctx} accountId={accountId} base="/portal" section={section} extra={extra} />
        {attempts ? <DeliveryLog ctx={ctx} rows={attempts} /> : null}
      </Page>,
      status,
    );
  }

  for (const section of SECTIONS) {
    app.get(`/${section}`, (request, reply) => show(request, reply, section));
  }
  registerIntegrationActions(app, s, '', (request) => memberAccountId(request), (request, reply, section, extra, status) => show(request, reply, section, extra, status));

  app.post('/webhooks/resend-transaction/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const id = (request.params as { id: string }).id;
    try {
      // With a webhook: that delivery's registered URL only (with its custom headers); without: every URL of the event.
      const webhook = field(request.body, 'webhook');
      if (webhook && !/^\d{1,12}$/.test(webhook)) throw new ValidationError(['webhook must be the id of one of your webhook URLs']);
      await s.webhookResend.resend(accountId, id, webhook ? { webhookId: Number(webhook) } : {});
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      if (refused.status === 404) throw new DomainError('NOT_FOUND');
      throw error;
    }
    return reply.redirect(`/portal/transactions/${id}`, 303);
  });
};
