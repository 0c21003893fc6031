import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';
import { TestClock, testClockActor } from '../../schemas/test-clocks.ts';

/** GET /sandbox/test-clocks: every clock (admin token) or the caller's own (account token), newest first. */
export const listTestClocksRoute: RouteModule<SandboxContext> = (app, c) =>
  app.get(
    '/sandbox/test-clocks',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Test clocks, newest first: all of them with the admin token, the caller's own with an account token",
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(TestClock) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.testClocks.page(testClockActor(request, c), asked);
      return pageView(rows, total, asked);
    },
  );
