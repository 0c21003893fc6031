import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { TestClock, testClockActor } from '../../schemas/test-clocks.ts';

/** POST /sandbox/test-clocks: a clock frozen at `frozenTime` for these accounts (each on one clock at most). */
export const createTestClockRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/test-clocks',
    {
      schema: {
        tags: ['sandbox'],
        summary: "A test clock for some accounts: every time rule of theirs follows it (an account's own token: only itself)",
        body: Type.Object({
          frozenTime: Type.String({ format: 'date-time', description: 'where the clock stands' }),
          accountIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100, description: 'accounts not on another clock' }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        }),
        response: { 201: TestClock },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const clock = await c.testClocks.create(testClockActor(request, c), { frozenTime: new Date(body.frozenTime), accountIds: body.accountIds, name: body.name });
      return reply.code(201).send(clock);
    },
  );
