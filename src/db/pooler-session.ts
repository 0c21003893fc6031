import pg from 'pg';

/** The server-side bounds of pg-pool.ts's DbTimeouts (milliseconds). */
interface ServerBounds {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
  clientCheckMs: number;
}

/**
 * Behind a transaction pooler (PgBouncer `pool_mode = transaction`, DATABASE_PREPARED_STATEMENTS=false)
 * a server session is ours for one transaction only: startup parameters (statement_timeout,
 * lock_timeout, `options`) are refused by PgBouncer, and a session `SET` would leak to the next
 * client of that server connection. Every bound is therefore set for the one transaction, with
 * `set_config(..., is_local => true)`, in the same round trip as the work:
 * - an explicit transaction: folded into its BEGIN (one simple-protocol message, two statements);
 * - a statement outside any transaction (the hot paths' single statements): pipelined before it, in
 *   the same extended-protocol batch (Parse/Bind/Execute of the bounds, then of the statement, one
 *   Sync). The batch is one implicit transaction, and PostgreSQL arms each Execute's
 *   statement_timeout afresh, so the statement runs under the bounds just set.
 */
export function localBounds(timeouts: ServerBounds): string {
  const settings: Array<[string, number]> = [
    ['statement_timeout', timeouts.statementMs],
    ['lock_timeout', timeouts.lockMs],
    ['idle_in_transaction_session_timeout', timeouts.idleInTransactionMs],
    ...(timeouts.clientCheckMs > 0 ? ([['client_connection_check_interval', timeouts.clientCheckMs]] as Array<[string, number]>) : []),
  ];
  return `SELECT ${settings.map(([name, ms]) => `pg_catalog.set_config('${name}', '${Math.floor(ms)}ms', true)`).join(', ')}`;
}

/** `BEGIN` / `START TRANSACTION` (with its modes), as Kysely and the code send it: one statement, no parameters. */
export const isTransactionStart = (text: string) => /^\s*(begin|start\s+transaction)\b[^;]*;?\s*$/i.test(text);

/** One statement for certain: a text without `;` (a text with one may hold several, which the extended protocol refuses). */
export const isSingleStatement = (text: string) => !text.includes(';');

/** The BEGIN of an explicit transaction with the bounds folded in: the result is BEGIN's own. */
export function beginWithBounds(text: string, bounds: string): string {
  return `${text.trim().replace(/;$/, '')}; ${bounds}`;
}

type QueryCallback = (error: Error | null, result?: unknown) => void;

interface ProtocolConnection {
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  execute(config: { portal: string; rows: number }): void;
}

const BaseQuery = pg.Query as unknown as new (config: { text: string; values: unknown[]; queryMode: 'extended' }, values: undefined, callback: QueryCallback) => {
  prepare(connection: ProtocolConnection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
};

/**
 * A statement outside any transaction, sent with the bounds' statement before it in one batch (see
 * above). The bounds' statement is executed without a Describe, so its row and completion come
 * first and are dropped here; everything after is node-postgres's own handling of the statement.
 */
export class BoundedStatement extends BaseQuery {
  private boundsDone = false;
  constructor(
    private readonly bounds: string,
    text: string,
    values: unknown[],
    callback: QueryCallback,
  ) {
    super({ text, values, queryMode: 'extended' }, undefined, callback);
  }

  override prepare(connection: ProtocolConnection) {
    connection.parse({ text: this.bounds, name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [] });
    connection.execute({ portal: '', rows: 0 });
    super.prepare(connection);
  }

  override handleDataRow(message: unknown) {
    if (this.boundsDone) super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: unknown) {
    if (!this.boundsDone) {
      this.boundsDone = true;
      return;
    }
    super.handleCommandComplete(message, connection);
  }
}

/** Runs `text` on `client` outside a transaction under the bounds, in one round trip; resolves like `client.query`. */
export function queryBounded(client: pg.ClientBase, bounds: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const statement = new BoundedStatement(bounds, text, values, (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult)));
    client.query(statement as unknown as pg.Submittable);
  });
}
