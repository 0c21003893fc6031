import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { testClockActor, TestClockId } from '../../schemas/test-clocks.ts';

/** DELETE /sandbox/test-clocks/{id}: its accounts return to the service clock. */
export const deleteTestClockRoute: RouteModule<SandboxContext> = (app, c) =>
  app.delete(
    '/sandbox/test-clocks/:id',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Deletes a test clock; its accounts return to the service clock',
        params: TestClockId,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
    },
    async (request, reply) => {
      await c.testClocks.remove(testClockActor(request, c), request.params.id);
      return reply.code(204).send(null);
    },
  );
