import { Type, type Static } from '@sinclair/typebox';
import { toBrlNumber } from '../../../domain/money.ts';
import type { LedgerCheck } from '../../../ledger/ledger.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';

const Brl = Type.Number({ format: 'money', description: 'BRL, 2 decimals' });
const Findings = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ count: Type.Integer({ description: 'How many there are (items lists at most 100)' }), items: Type.Array(item) });

const LedgerCheckView = Type.Object({
  ok: Type.Boolean({ description: 'True when every invariant holds' }),
  checkedAt: Type.String({ format: 'date-time' }),
  postings: Type.Object({ count: Type.Integer(), total: Brl }),
  unbalancedJournals: Findings(Type.Object({ journalId: Type.String(), sum: Brl })),
  drift: Findings(Type.Object({ accountId: Type.Integer(), available: Brl, blocked: Brl, postedAvailable: Brl, postedBlocked: Brl })),
  negativeBalances: Findings(Type.Object({ accountId: Type.Integer(), available: Brl, blocked: Brl })),
  systemAccounts: Type.Array(Type.Object({ code: Type.String(), balance: Brl })),
});

function view(check: LedgerCheck, at: Date): Static<typeof LedgerCheckView> {
  return {
    ok: check.ok,
    checkedAt: at.toISOString(),
    postings: { count: check.postings.count, total: toBrlNumber(check.postings.total) },
    unbalancedJournals: { count: check.unbalancedJournals.count, items: check.unbalancedJournals.items.map((j) => ({ journalId: j.journalId, sum: toBrlNumber(j.sum) })) },
    drift: {
      count: check.drift.count,
      items: check.drift.items.map((d) => ({
        accountId: d.id,
        available: toBrlNumber(d.available),
        blocked: toBrlNumber(d.blocked),
        postedAvailable: toBrlNumber(d.postedAvailable),
        postedBlocked: toBrlNumber(d.postedBlocked),
      })),
    },
    negativeBalances: {
      count: check.negativeBalances.count,
      items: check.negativeBalances.items.map((n) => ({ accountId: n.id, available: toBrlNumber(n.available), blocked: toBrlNumber(n.blocked) })),
    },
    systemAccounts: check.systemAccounts.map((a) => ({ code: a.code, balance: toBrlNumber(a.balance) })),
  };
}

/**
 * The ledger's invariants checked from scratch (issue 11). Always 200 when the check ran: a broken
 * ledger is a finding (`ok: false` with what broke), not an error of this request.
 */
export const ledgerCheckRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/ledger/check',
    {
      schema: {
        tags: ['admin'],
        summary: 'Checks the double-entry ledger: balanced journals, balances equal to postings, no negative balance',
        response: { 200: LedgerCheckView },
      },
    },
    async () => view(await c.checkLedger(), c.clock.now()),
  );
