import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB, TransactionKind, TransactionStatus } from '../../db/schema.ts';
import type { ReadRouting } from '../../db/read-routing.ts';

export interface TransactionFilter {
  page?: number;
  size?: number;
  status?: TransactionStatus;
  type?: TransactionKind;
  /** 'YYYY-MM-DD' (UTC); a date-time is taken for its UTC date. */
  startDate?: string;
  endDate?: string;
  externalId?: string;
  endToEndId?: string;
}

const DAY_MS = 86_400_000;
/** The most rows one export answers (issue 30: up to 100,000, streamed). */
export const MAX_EXPORT_ROWS = 100_000;
const EXPORT_BATCH_ROWS = 1_000;
const MAX_INTERVAL_DAYS = 31;

/** A UTC calendar date from 'YYYY-MM-DD' or an ISO date-time; undefined when it is not one. */
function utcDate(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T.*)?$/.exec(text);
  if (!m) return undefined;
  const d = text.length === 10 ? new Date(`${text}T00:00:00.000Z`) : new Date(text);
  if (Number.isNaN(d.getTime())) return undefined;
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  // Reject dates that roll over (2026-02-30).
  if (text.length === 10 && day.toISOString().slice(0, 10) !== text) return undefined;
  return day;
}

/**
 * The account's transactions (GET /api/transactions): UTC dates, both ends inclusive, newest first,
 * at most 31 days per query; and one transaction by any public identifier (the poll route).
 */
export function createTransactionsService(deps: { db: Kysely<DB>; clock: Clock; /** The read replica when fresh for the account (read-routing.ts). */ reads?: ReadRouting }) {
  const read = <T>(accountId: number, query: (db: Kysely<DB>) => Promise<T>) => (deps.reads ? deps.reads.run({ accountId }, query) : query(deps.db));
  /** The filter's query (dates checked: UTC, inclusive, at most 31 days), and the page asked for. */
  function filtered(db: Kysely<DB>, accountId: number, f: TransactionFilter) {
    const page = f.page ?? 1;
    const size = f.size ?? 20;
    const today = utcDate(deps.clock.now().toISOString())!;
    const problems: string[] = [];
    const end = f.endDate !== undefined ? utcDate(f.endDate) : today;
    if (!end) problems.push('endDate must be an ISO 8601 date (YYYY-MM-DD)');
    const start = f.startDate !== undefined ? utcDate(f.startDate) : end && new Date(end.getTime() - MAX_INTERVAL_DAYS * DAY_MS);
    if (!start) problems.push('startDate must be an ISO 8601 date (YYYY-MM-DD)');
    if (problems.length > 0) throw new ValidationError(problems);
    if (start!.getTime() > end!.getTime()) throw new ValidationError(['startDate must not be after endDate']);
    if (end!.getTime() - start!.getTime() > MAX_INTERVAL_DAYS * DAY_MS) {
      throw new ValidationError([`the interval between startDate and endDate must be at most ${MAX_INTERVAL_DAYS} days`]);
    }
    const from = start!;
    const until = new Date(end!.getTime() + DAY_MS);

    const base = db
      .selectFrom('transactions')
      .where('account_id', '=', accountId)
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .$if(f.status !== undefined, (q) => q.where('status', '=', f.status!))
      .$if(f.type !== undefined, (q) => q.where('kind', '=', f.type!))
      .$if(f.externalId !== undefined, (q) => q.where('external_id', '=', f.externalId!))
      .$if(f.endToEndId !== undefined, (q) => q.where('end_to_end_id', '=', f.endToEndId!));
    return { base, page, size };
  }

  async function list(accountId: number, f: TransactionFilter) {
    filtered(deps.db, accountId, f); // bad dates are refused before any database is asked
    const { rows, count, page, size } = await read(accountId, async (db) => {
      const { base, page, size } = filtered(db, accountId, f);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute(),
        base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows, count, page, size };
    });
    const total = Number(count.total);
    const totalPages = Math.ceil(total / size);
    return {
      rows,
      metadata: { page, size, total, totalPages, hasNext: page < totalPages, hasPrevious: page > 1 },
    };
  }

  /**
   * The same filter without the total (the portal's pages): one row more than the page says whether
   * a next page exists, so a busy account's window is not counted on every view.
   */
  async function browse(accountId: number, f: TransactionFilter) {
    const { page, size } = filtered(deps.db, accountId, f);
    const rows = await read(accountId, (db) =>
      filtered(db, accountId, f).base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size + 1).offset((page - 1) * size).execute(),
    );
    return { rows: rows.slice(0, size), page, hasNext: rows.length > size, hasPrevious: page > 1 };
  }

  /** One of the account's transactions by numeric id, transactionId or externalId; foreign ones are not found. */
  async function get(accountId: number, identifier: string): Promise<TransactionRow> {
    const tx = await read(accountId, (db) => transactionsRepo.findForAccount(db, accountId, identifier, { externalId: true }));
    if (!tx) throw new DomainError('NOT_FOUND', undefined, 'Transaction not found');
    return tx;
  }

  /**
   * Every transaction the filter selects, newest first, up to `maxRows`, read `batchSize` rows per
   * statement by keyset (created_at, id): an export is written out as it is read, never held whole,
   * and holds no connection between its batches. The filter is checked before the first row (a bad
   * date throws here, not halfway through a download).
   */
  function exportRows(accountId: number, f: Omit<TransactionFilter, 'page' | 'size'>, limits: { maxRows?: number; batchSize?: number } = {}): AsyncIterable<TransactionRow> {
    // Checked now (a bad date throws before the first row); each batch then reads where `read` sends
    // it (the replica while it is fresh for this account, read-routing.ts).
    filtered(deps.db, accountId, f);
    const maxRows = limits.maxRows ?? MAX_EXPORT_ROWS;
    const batchSize = Math.min(limits.batchSize ?? EXPORT_BATCH_ROWS, maxRows);
    return {
      async *[Symbol.asyncIterator]() {
        let after: { at: string; id: number } | undefined;
        let sent = 0;
        while (sent < maxRows) {
          const rows = await read(accountId, (db) => filtered(db, accountId, f).base
            .selectAll()
            // The cursor's time as PostgreSQL's text: exact to the microsecond, unlike a JS Date.
            .select(sql<string>`created_at::text`.as('cursor_at'))
            .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.at}::timestamptz, ${after!.id})`))
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(Math.min(batchSize, maxRows - sent))
            .execute());
          for (const { cursor_at: _cursor, ...row } of rows) yield row as TransactionRow;
          sent += rows.length;
          const last = rows.at(-1);
          if (!last || rows.length < Math.min(batchSize, maxRows - sent + rows.length)) return;
          after = { at: last.cursor_at, id: Number(last.id) };
        }
      },
    };
  }

  return { list, browse, get, exportRows };
}

export type TransactionsService = ReturnType<typeof createTransactionsService>;
