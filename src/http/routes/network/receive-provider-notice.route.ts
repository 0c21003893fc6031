import { Type } from '@sinclair/typebox';
import { DomainError, ValidationError } from '../../../domain/errors/domain-error.ts';
import { NoticeRefused, NoticeUnreadable } from '../../../network/provider/notice-signature.ts';
import { NOTICE_PATH } from '../../../network/provider/types.ts';
import type { RouteModule } from '../../app-types.ts';

const Answer = Type.Object({
  received: Type.Boolean(),
  duplicate: Type.Boolean({ description: 'true: this notice (webhook-id) was received before and nothing changed' }),
});

/**
 * POST /network/provider/webhooks: the upstream provider's notices (Standard Webhooks). The body is
 * kept as the exact text received (its family's parser), since the signature covers those bytes.
 * A bad signature or a timestamp more than 5 minutes away answers 401 and changes nothing; a notice
 * received again answers 200 `duplicate: true` and changes nothing.
 */
export const receiveProviderNoticeRoute: RouteModule = (app, c) =>
  app.post(
    NOTICE_PATH,
    {
      schema: {
        tags: ['network'],
        summary: "The PIX provider's notices (CashIn, CashOut, CashInReversal, CashOutReversal, MED), signed with Standard Webhooks",
        description:
          'Signed by the provider with the `whsec_` secret given as PROVIDER_WEBHOOK_SECRET: headers `webhook-id`, `webhook-timestamp`, `webhook-signature`. A timestamp more than 5 minutes away, or a signature that does not verify, answers 401; a notice received again (same `webhook-id`) answers 200 and changes nothing.',
        headers: Type.Object({
          'webhook-id': Type.Optional(Type.String()),
          'webhook-timestamp': Type.Optional(Type.String()),
          'webhook-signature': Type.Optional(Type.String()),
        }),
        response: { 200: Answer },
      },
    },
    async (request) => {
      const provider = c.providerNetwork;
      if (!provider) throw new DomainError('NOT_FOUND');
      const raw = typeof request.body === 'string' ? request.body : '';
      try {
        const answer = await provider.receiveNotice(raw, request.headers);
        return { received: true, duplicate: answer.duplicate };
      } catch (error) {
        if (error instanceof NoticeRefused) {
          request.log.warn({ reason: error.message, webhookId: request.headers['webhook-id'] }, 'provider notice refused');
          throw new DomainError('UNAUTHORIZED', undefined, `The notice signature or timestamp is not valid: ${error.message}`);
        }
        if (error instanceof NoticeUnreadable) throw new ValidationError([error.message]);
        throw error;
      }
    },
  );
