import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { PixNetwork } from '../network/pix-network.ts';
import type { SuspenseService } from './suspense/suspense.service.ts';
import { DEBIT_KINDS } from '../domain/closed-lists.ts';

/**
 * The operator's view of the PIX network (GET /admin/network/status): which adapter, the
 * provider's health as this instance sees it (circuit, token, last notice, webhook registration,
 * last reconciliation, last statement check and its difference), the payments still waiting for
 * an outcome, and the money held in suspense. `Health`: whatever the provider adapter reports of
 * itself (the container knows the adapter; this service only passes it on).
 */
export function createNetworkStatus<Health>(deps: { db: Kysely<DB>; network: Pick<PixNetwork, 'ledgerAccount'>; provider: { health(): Promise<Health> } | undefined; suspense: SuspenseService }) {
  return async function status() {
    const [awaiting, suspense, provider] = await Promise.all([
      deps.db
        .selectFrom('transactions')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'PENDING')
        .where('kind', 'in', DEBIT_KINDS)
        .executeTakeFirstOrThrow(),
      deps.suspense.open(),
      deps.provider?.health(),
    ]);
    return {
      adapter: provider ? ('provider' as const) : ('sandbox' as const),
      ledgerAccount: deps.network.ledgerAccount,
      payoutsAwaitingOutcome: { count: Number(awaiting.n), oldestCreatedAt: (awaiting.oldest as Date | null) ?? null },
      suspense,
      provider: provider ?? null,
    };
  };
}
