import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../domain/clock.ts';

/** Who made a change and from where: the admin token, or a person signed in to the portal. */
export interface Actor {
  /** `admin-api` (the admin token), `operator:<id>` or `member:<id>`. */
  actor: string;
  email: string | null;
  address: string | null;
}

export interface AuditEntry {
  action: string;
  accountId?: number | null;
  target?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditFilter {
  accountId?: number;
  action?: string;
  actor?: string;
  /** Rows older than this id (keyset pagination, newest first). */
  beforeId?: number;
  limit?: number;
}

/**
 * The audit log. `record` takes the transaction of the change it describes, so the change and its
 * record commit or roll back together.
 */
export function createAuditLog(deps: { db: Kysely<DB>; clock: Clock }) {
  async function record(trx: Transaction<DB> | Kysely<DB>, actor: Actor, entry: AuditEntry) {
    await trx
      .insertInto('audit_log')
      .values({
        at: deps.clock.now(),
        actor: actor.actor,
        actor_email: actor.email,
        address: actor.address,
        action: entry.action,
        account_id: entry.accountId ?? null,
        target: entry.target ?? null,
        before: entry.before ? JSON.stringify(entry.before) : null,
        after: entry.after ? JSON.stringify(entry.after) : null,
      })
      .execute();
  }

  /** Records a change that committed on its own (the sandbox's simulated network acts in its own transaction). */
  const recordNow = (actor: Actor, entry: AuditEntry) => record(deps.db, actor, entry);

  async function list(filter: AuditFilter) {
    let query = deps.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(Math.min(filter.limit ?? 50, 200));
    if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actor) query = query.where((eb) => eb.or([eb('actor', '=', filter.actor!), eb('actor_email', '=', filter.actor!.toLowerCase())]));
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    return query.execute();
  }

  return { record, recordNow, list };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** The actor of a request made with the admin token. */
export const adminTokenActor = (address: string | null): Actor => ({ actor: 'admin-api', email: null, address });

/** The parts of an account an audit record shows: limits, fees and split frequency before and after. */
export function accountSnapshot(row: {
  name: string;
  limit_per_transaction: number;
  limit_daily: number;
  limit_nightly: number;
  fee_cash_in_fixed: number;
  fee_cash_in_percent_bp: number;
  fee_cash_out_fixed: number;
  fee_cash_out_percent_bp: number;
  split_frequency: string;
}) {
  return {
    name: row.name,
    splitFrequency: row.split_frequency,
    limits: { perTransaction: row.limit_per_transaction, daily: row.limit_daily, nightly: row.limit_nightly },
    fees: {
      cashIn: { fixed: row.fee_cash_in_fixed, percentBp: row.fee_cash_in_percent_bp },
      cashOut: { fixed: row.fee_cash_out_fixed, percentBp: row.fee_cash_out_percent_bp },
    },
  };
}

/** An `AccountAudit` (account service hook) that records `action` for `actor`. */
export function auditAccountChange(audit: AuditLog, actor: Actor, action: string) {
  return async (trx: Transaction<DB>, before: Parameters<typeof accountSnapshot>[0] | undefined, after: Parameters<typeof accountSnapshot>[0] & { id: number }) => {
    await audit.record(trx, actor, {
      action,
      accountId: after.id,
      target: `account:${after.id}`,
      before: before ? accountSnapshot(before) : null,
      after: accountSnapshot(after),
    });
  };
}

/** A service's hook for recording one change inside its own transaction. */
export type ChangeAudit = (trx: Transaction<DB>, change: { accountId: number | null; target: string; after?: Record<string, unknown> | null; before?: Record<string, unknown> | null }) => Promise<void>;

/** The `ChangeAudit` that records `action` for `actor`. */
export function recordAs(audit: AuditLog, actor: Actor, action: string): ChangeAudit {
  return (trx, change) => audit.record(trx, actor, { action, ...change });
}
