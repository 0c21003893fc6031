import { Type, type Static } from '@sinclair/typebox';
import { toBrlNumber, type Cents } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { Brl } from '../../schemas/common.ts';

const At = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Loose = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

const StatementCheckView = Type.Object({
  checkedAt: Type.String({ format: 'date-time' }),
  providerBalance: Type.Union([Brl(), Type.Null()], { description: "the pooled account's gross balance at the provider (GET /api/balance)" }),
  ourBalance: Brl({ description: 'what our books say the pooled account holds (BRL)' }),
  difference: Type.Union([Brl(), Type.Null()], { description: 'providerBalance - ourBalance; null when the provider could not be asked' }),
  payoutsAwaiting: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

const ProviderView = Type.Object({
  url: Type.String(),
  circuit: Type.Object({
    state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
    consecutiveFailures: Type.Integer(),
    openedAt: At,
    retryAt: At,
    lastFailure: Type.Union([Type.String(), Type.Null()]),
  }),
  token: Type.Object({ expiresAt: At, lastRenewedAt: At, lastError: Type.Union([Type.String(), Type.Null()]) }),
  lastNotice: Type.Union([
    Type.Object({ webhookId: Type.String(), event: Type.String(), receivedAt: Type.String({ format: 'date-time' }), outcome: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  webhooks: Loose,
  lastReconciliation: Loose,
  chargesAwaitingOutcome: Type.Integer(),
  lastStatementCheck: Type.Union([StatementCheckView, Type.Null()]),
});

export const NetworkStatusView = Type.Object({
  adapter: Type.Union([Type.Literal('sandbox'), Type.Literal('provider')]),
  ledgerAccount: Type.String(),
  payoutsAwaitingOutcome: Type.Object({ count: Type.Integer(), oldestCreatedAt: At }),
  suspense: Type.Object({ count: Type.Integer(), total: Brl() }),
  provider: Type.Union([ProviderView, Type.Null()]),
});

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
const brl = (c: Cents | null) => (c === null ? null : toBrlNumber(c));

/** What the container's network status answers (the provider part is whatever its adapter reports). */
type NetworkStatus = Awaited<ReturnType<AdminContext['networkStatus']>>;

export function networkStatusView(s: NetworkStatus): Static<typeof NetworkStatusView> {
  const p = s.provider;
  return {
    adapter: s.adapter,
    ledgerAccount: s.ledgerAccount,
    payoutsAwaitingOutcome: { count: s.payoutsAwaitingOutcome.count, oldestCreatedAt: iso(s.payoutsAwaitingOutcome.oldestCreatedAt) },
    suspense: { count: s.suspense.count, total: toBrlNumber(s.suspense.total) },
    provider: p
      ? {
          url: p.url,
          circuit: { ...p.circuit, openedAt: iso(p.circuit.openedAt), retryAt: iso(p.circuit.retryAt) },
          token: { expiresAt: iso(p.token.expiresAt), lastRenewedAt: iso(p.token.lastRenewedAt), lastError: p.token.lastError },
          lastNotice: p.lastNotice ? { ...p.lastNotice, receivedAt: iso(p.lastNotice.receivedAt)! } : null,
          webhooks: p.webhooks,
          lastReconciliation: p.reconciliation,
          chargesAwaitingOutcome: p.chargesAwaitingOutcome,
          lastStatementCheck: p.lastStatementCheck
            ? {
                checkedAt: iso(p.lastStatementCheck.checkedAt)!,
                providerBalance: brl(p.lastStatementCheck.providerBalance),
                ourBalance: toBrlNumber(p.lastStatementCheck.ourBalance),
                difference: brl(p.lastStatementCheck.difference),
                payoutsAwaiting: p.lastStatementCheck.payoutsAwaiting,
                error: p.lastStatementCheck.error,
              }
            : null,
        }
      : null,
  };
}

/** GET /admin/network/status: the PIX network as this instance sees it (issue 13 item 3). */
export const networkStatusRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/network/status',
    {
      schema: {
        tags: ['admin'],
        summary: 'The PIX network: adapter, circuit, token expiry, last notice, payouts awaiting an outcome, last reconciliation, statement check, suspense',
        response: { 200: NetworkStatusView },
      },
    },
    async () => networkStatusView(await c.networkStatus()),
  );
