import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB, EventType } from '../../db/schema.ts';
import { ValidationError } from '../../domain/errors/domain-error.ts';
import { queueReplay, type ReplayStatus } from '../../webhooks/replay.repo.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';

/** The advisory lock class of replays (with the account id): two replays of one account take turns. */
const REPLAY_LOCK = 29_0001;

/** Parses `since`: an ISO 8601 date-time, or a date (00:00 UTC of that day). */
function instantOf(text: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw new ValidationError(['since must be an ISO 8601 date-time']);
  return date;
}

/**
 * "Every failed delivery since T, again" (issue 29): queues the deliveries for the relay, which sends
 * them to the account's active URLs as usual. Two replays of one account take turns (an advisory
 * lock, never the account row, which money commands need), so each sees what the other queued.
 */
export function createWebhookReplay(deps: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: { get(id: number): Promise<unknown> };
  /** The account's time (its sandbox test clock's, issue 29 item 3): replays fall due on it. */
  nowFor?: (accountId: number) => Promise<Date>;
}) {
  return {
    /** `audit`: an operator's replay is recorded in the audit log, in the same transaction. */
    async replay(accountId: number, input: { since: string; status: ReplayStatus; type?: EventType | undefined }, audit?: ChangeAudit): Promise<{ queued: number }> {
      const since = instantOf(input.since);
      const now = deps.nowFor ? await deps.nowFor(accountId) : deps.clock.now();
      const queued = await deps.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${REPLAY_LOCK}::int, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
        const n = await queueReplay(trx, { accountId, since, status: input.status, type: input.type, now });
        await audit?.(trx, { accountId, target: `webhook-deliveries:${accountId}`, after: { since: since.toISOString(), status: input.status, type: input.type ?? null, queued: n } });
        return n;
      });
      return { queued };
    },
    /** Admin routes: a 404 for an account that does not exist. */
    requireAccount: async (accountId: number) => void (await deps.accounts.get(accountId)),
  };
}

export type WebhookReplay = ReturnType<typeof createWebhookReplay>;
