import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { TEST_CLOCK_STATUSES } from '../../domain/closed-lists.ts';
import type { TestClockActor } from '../../services/test-clocks/test-clock.service.ts';
import { hasAdminToken } from '../plugins/admin-auth.ts';
import type { SandboxContext } from '../route-contexts.ts';

/** A per-account test clock (issue 29 item 3; decisions 8). */
export const TestClock = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.Union([Type.String(), Type.Null()]),
    frozenTime: Type.String({ format: 'date-time', description: 'the time the accounts on the clock see; it moves only when advanced' }),
    status: Type.Union(TEST_CLOCK_STATUSES.map((s) => Type.Literal(s)), { description: '`advancing` while what fell due for its accounts runs, then `ready`' }),
    accountIds: Type.Array(Type.Integer(), { description: 'the accounts on this clock' }),
  },
  { $id: 'TestClock', title: 'TestClock' },
);

export const TestClockId = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Who calls a test clock route: the admin token (any clock) or an account's own token (its clocks). */
export function testClockActor(request: FastifyRequest, c: Pick<SandboxContext, 'config'>): TestClockActor {
  if (hasAdminToken(request, c.config.adminToken)) return { kind: 'admin' };
  if (!request.identity) throw new DomainError('UNAUTHORIZED');
  return { kind: 'account', accountId: request.identity.accountId };
}
