import { Type } from '@sinclair/typebox';
import { DomainError, ValidationError } from '../../../domain/errors/domain-error.ts';
import { NOTICE_PATH, NoticeRefused, NoticeUnreadable } from '../../../network/provider-notices.ts';
import type { RouteModule } from '../../app-types.ts';
import type { NetworkContext } from '../../route-contexts.ts';

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
export const receiveProviderNoticeRoute: RouteModule<NetworkContext> = (app, c) => {
  // A refused notice is said at warn at most once a minute (a wrong PROVIDER_WEBHOOK_SECRET must be
  // seen; a flood of forged requests must not flood the log), the others at debug.
  let lastWarnAt = 0;
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
          const loud = Date.now() - lastWarnAt > 60_000;
          if (loud) lastWarnAt = Date.now();
          request.log[loud ? 'warn' : 'debug']({ reason: error.message, webhookId: request.headers['webhook-id'] }, 'provider notice refused: signature or timestamp not valid (check PROVIDER_WEBHOOK_SECRET and the clocks)');
          throw new DomainError('UNAUTHORIZED', undefined, `The notice signature or timestamp is not valid: ${error.message}`);
        }
        if (error instanceof NoticeUnreadable) throw new ValidationError([error.message]);
        throw error;
      }
    },
  );
};
