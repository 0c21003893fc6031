import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { advanceSandboxClock } from '../../../services/sandbox/sandbox-clock.ts';
import { requireAdmin } from '../../plugins/admin-auth.ts';

export const advanceClockRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/clock/advance',
    {
      onRequest: requireAdmin(c.config.adminToken, c.authFailures),
      schema: {
        tags: ['sandbox'],
        summary: 'Move the service clock forward; what falls due (expiries, settlements, retries) then happens',
        body: Type.Object({ seconds: Type.Integer({ minimum: 1, maximum: 31_536_000 }) }),
        response: { 200: Type.Object({ now: Type.String(), jobsRun: Type.Number() }) },
      },
    },
    async (request) => {
      const jobsRun = await advanceSandboxClock({ clock: c.sandboxClock!, store: c.sandboxClockStore, scheduler: c.scheduler, webhookRelay: c.webhookRelay }, request.body.seconds);
      return { now: c.clock.now().toISOString(), jobsRun };
    },
  );
