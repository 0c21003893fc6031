import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { advanceTestClockRoute } from './advance-test-clock.route.ts';
import { createTestClockRoute } from './create-test-clock.route.ts';
import { deleteTestClockRoute } from './delete-test-clock.route.ts';
import { getTestClockRoute } from './get-test-clock.route.ts';
import { listTestClocksRoute } from './list-test-clocks.route.ts';

/** Per-account test clocks (issue 29 item 3): sandbox routes, so absent in production. */
export const testClockRoutes: RouteModule<SandboxContext>[] = [createTestClockRoute, listTestClocksRoute, getTestClockRoute, advanceTestClockRoute, deleteTestClockRoute];
