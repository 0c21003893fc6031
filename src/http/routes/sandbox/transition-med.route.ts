import { Type } from '@sinclair/typebox';
import { Med, type MedView } from '../../../services/med/med-view.ts';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { NumericId } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { MED_ANALYSIS_RESULTS, MED_STATUSES } from '../../../domain/closed-lists.ts';

/** POST /sandbox/med/{id}/transition: moves a MED along its state machine (decisions 4.6). */
export const transitionMedRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/med/:id/transition',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Move a MED: OPEN -> RECEIVED -> ANALYZED (APPROVED refunds, REJECTED releases); OPEN|RECEIVED -> CANCELLED',
        params: Type.Object({ id: NumericId }),
        body: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
          to: OneOf(MED_STATUSES),
          analysisResult: Type.Optional(OneOf(MED_ANALYSIS_RESULTS)),
          analysisDetails: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: { 200: Med },
      },
    },
    async (request) => {
      const body = request.body;
      const accountId = await sandboxAccountId(request, c, body.accountId);
      // The simulated network moves the MED along; it reaches the MED service as any network notice would.
      return (await c.sandboxNetwork!.updateInfraction({
        accountId,
        medId: Number(request.params.id),
        to: body.to,
        ...(body.analysisResult ? { analysisResult: body.analysisResult } : {}),
        ...(body.analysisDetails !== undefined ? { analysisDetails: body.analysisDetails } : {}),
      })) as MedView;
    },
  );
