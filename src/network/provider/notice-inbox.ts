import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { ChargeBook } from './charge-book.ts';
import { routeNotice } from './notice-router.ts';
import { verifyNotice } from './notice-signature.ts';
import type { NetworkSink } from '../pix-network.ts';

/** A notice being handled by one delivery keeps others of the same id away this long (real time). */
const CLAIM_SECONDS = 30;

export type NoticeAnswer = { duplicate: false; outcome: string } | { duplicate: true };

/**
 * `POST /network/provider/webhooks`: verifies the notice (signature and 5-minute timestamp, before
 * anything is written), then deduplicates it by `webhook-id` in the database: a notice already
 * handled (or being handled by another delivery right now) answers 2xx and changes nothing. A
 * handling that fails releases the claim and throws, so the provider's retry handles it again;
 * every handler is idempotent, so a notice whose effects were written before the failure changes
 * nothing more the second time.
 */
export function createNoticeInbox(deps: { db: Kysely<DB>; clock: Clock; secret: string; book: ChargeBook; sink: () => NetworkSink; logger: Logger }) {
  async function claim(webhookId: string, event: string): Promise<boolean> {
    const now = deps.clock.now();
    const inserted = await sql<{ webhook_id: string }>`
      INSERT INTO provider_notices (webhook_id, event, received_at, claimed_until)
      VALUES (${webhookId}, ${event}, ${now}, now() + make_interval(secs => ${CLAIM_SECONDS}))
      ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id`.execute(deps.db);
    if (inserted.rows.length > 0) return true;
    // Known already: handled (a replay), being handled, or left unfinished by a failed attempt.
    const retaken = await sql<{ webhook_id: string }>`
      UPDATE provider_notices SET claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS})
       WHERE webhook_id = ${webhookId} AND handled_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
      RETURNING webhook_id`.execute(deps.db);
    return retaken.rows.length > 0;
  }

  async function receive(rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<NoticeAnswer> {
    const { webhookId, payload } = verifyNotice(deps.secret, rawBody, headers);
    const event = String(payload.event ?? payload.type ?? 'unknown').slice(0, 64);
    if (!(await claim(webhookId, event))) {
      deps.logger.info({ webhookId, event }, 'provider notice received again: nothing changes');
      return { duplicate: true };
    }
    let outcome: string;
    try {
      outcome = await routeNotice(payload, { sink: deps.sink(), book: deps.book, now: deps.clock.now() });
    } catch (error) {
      await deps.db.updateTable('provider_notices').set({ claimed_until: null, outcome: `failed: ${String((error as Error)?.message ?? error).slice(0, 300)}` }).where('webhook_id', '=', webhookId).execute();
      deps.logger.error({ err: error, webhookId, event }, 'a provider notice could not be applied; the provider will send it again');
      throw error;
    }
    await deps.db.updateTable('provider_notices').set({ handled_at: deps.clock.now(), claimed_until: null, outcome }).where('webhook_id', '=', webhookId).execute();
    deps.logger.info({ webhookId, event, outcome }, 'provider notice applied');
    return { duplicate: false, outcome };
  }

  async function last() {
    return deps.db.selectFrom('provider_notices').selectAll().orderBy('received_at', 'desc').limit(1).executeTakeFirst();
  }

  return { receive, last };
}

export type NoticeInbox = ReturnType<typeof createNoticeInbox>;
