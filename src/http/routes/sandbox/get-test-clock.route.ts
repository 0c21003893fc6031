import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { TestClock, testClockActor, TestClockId } from '../../schemas/test-clocks.ts';

/** GET /sandbox/test-clocks/{id}; another account's clock is 404. */
export const getTestClockRoute: RouteModule<SandboxContext> = (app, c) =>
  app.get(
    '/sandbox/test-clocks/:id',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'A test clock: its time, status and accounts',
        params: TestClockId,
        response: { 200: TestClock },
      },
    },
    async (request) => c.testClocks.get(testClockActor(request, c), request.params.id),
  );
