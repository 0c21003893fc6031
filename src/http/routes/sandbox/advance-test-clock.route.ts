import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { TestClock, testClockActor, TestClockId } from '../../schemas/test-clocks.ts';

/** POST /sandbox/test-clocks/{id}/advance: forward only; 202 `advancing`, `ready` once what fell due ran. */
export const advanceTestClockRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/test-clocks/:id/advance',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Moves a test clock forward; what falls due for its accounts then happens in order, and its status returns to ready",
        params: TestClockId,
        body: Type.Object({ to: Type.String({ format: 'date-time', description: "after the clock's frozenTime" }) }),
        response: { 202: TestClock },
      },
    },
    async (request, reply) => {
      const clock = await c.testClocks.advance(testClockActor(request, c), request.params.id, new Date(request.body.to));
      return reply.code(202).send(clock);
    },
  );
