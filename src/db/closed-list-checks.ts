import { sql, type Kysely, type Transaction } from 'kysely';
import * as lists from '../domain/closed-lists.ts';

/** One text column whose values are one of the closed lists of src/domain/closed-lists.ts. */
export interface ClosedListCheck {
  table: string;
  column: string;
  /** The constraint's name (the one the first migration gave it). */
  constraint: string;
  values: readonly string[];
}

/**
 * Every CHECK (column IN (...)) of the schema, derived from the closed lists: `migrate` makes the
 * database's constraint say exactly this (applyClosedListChecks), and test/db/closed-lists.test.ts
 * fails when the database holds a list constraint that is not declared here.
 */
export const CLOSED_LIST_CHECKS: readonly ClosedListCheck[] = [
  { table: 'accounts', column: 'type', constraint: 'accounts_type_check', values: lists.ACCOUNT_TYPES },
  { table: 'accounts', column: 'split_frequency', constraint: 'accounts_split_frequency', values: lists.SPLIT_FREQUENCIES },
  { table: 'accounts', column: 'status', constraint: 'accounts_status_check', values: lists.ACCOUNT_STATUSES },
  { table: 'account_keys', column: 'key_type', constraint: 'account_keys_key_type_check', values: lists.DICT_KEY_TYPES },
  { table: 'sandbox_dict_keys', column: 'key_type', constraint: 'sandbox_dict_keys_key_type_check', values: lists.DICT_KEY_TYPES },
  { table: 'transactions', column: 'kind', constraint: 'transactions_kind_check', values: lists.TRANSACTION_KINDS },
  { table: 'transactions', column: 'status', constraint: 'transactions_status_check', values: lists.TRANSACTION_STATUSES },
  { table: 'transactions', column: 'family', constraint: 'transactions_family_check', values: lists.TRANSACTION_FAMILIES },
  { table: 'postings', column: 'bucket', constraint: 'postings_bucket_check', values: lists.BALANCE_BUCKETS },
  { table: 'jobs', column: 'status', constraint: 'jobs_status_check', values: lists.JOB_STATUSES },
  { table: 'events', column: 'type', constraint: 'events_type_check', values: lists.WEBHOOK_EVENT_TYPES },
  { table: 'webhooks', column: 'event_type', constraint: 'webhooks_event_type_check', values: lists.WEBHOOK_EVENT_TYPES },
  { table: 'webhook_deliveries', column: 'status', constraint: 'webhook_deliveries_status_check', values: lists.DELIVERY_STATUSES },
  { table: 'webhook_logs', column: 'kind', constraint: 'webhook_logs_kind_check', values: lists.ATTEMPT_KINDS },
  { table: 'charges', column: 'kind', constraint: 'charges_kind_check', values: lists.CHARGE_KINDS },
  { table: 'charges', column: 'status', constraint: 'charges_status_check', values: lists.CHARGE_STATUSES },
  { table: 'refunds', column: 'natureza', constraint: 'refunds_natureza_check', values: lists.REFUND_NATURES },
  { table: 'meds', column: 'status', constraint: 'meds_status_check', values: lists.MED_STATUSES },
  { table: 'meds', column: 'reason', constraint: 'meds_reason_check', values: lists.MED_REASONS },
  { table: 'meds', column: 'analysis_result', constraint: 'meds_analysis_result_check', values: lists.MED_ANALYSIS_RESULTS },
  { table: 'portal_users', column: 'role', constraint: 'portal_users_role_check', values: lists.PORTAL_ROLES },
  { table: 'test_clocks', column: 'status', constraint: 'test_clocks_status_check', values: lists.TEST_CLOCK_STATUSES },
];

/** A CHECK constraint of the current schema that limits one text column to a list of values. */
export interface StoredListCheck {
  table: string;
  constraint: string;
  column: string;
  values: string[];
}

type Trx = Transaction<any> | Kysely<any>;

/**
 * The list constraints the database holds, read from pg_constraint: PostgreSQL renders
 * `CHECK (c IN ('a', 'b'))` as `CHECK ((c = ANY (ARRAY['a'::text, 'b'::text])))`.
 */
export async function storedListChecks(db: Trx): Promise<StoredListCheck[]> {
  const { rows } = await sql<{ table: string; constraint: string; definition: string }>`
    SELECT conrelid::regclass::text AS table, conname AS constraint, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint
     WHERE contype = 'c' AND connamespace = current_schema()::regnamespace
     ORDER BY 1, 2`.execute(db);
  const found: StoredListCheck[] = [];
  for (const row of rows) {
    const match = /^CHECK \(\(\(?"?(\w+)"?\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)$/.exec(row.definition);
    if (!match) continue;
    const items = match[2]!.split(',').map((item) => /^\s*'((?:[^']|'')*)'(?:::\w+(?: \w+)*)?\s*$/.exec(item));
    if (items.some((item) => item === null)) continue; // a list of numbers: not a closed list of names
    found.push({ table: row.table.replace(/^"|"$/g, ''), constraint: row.constraint, column: match[1]!, values: items.map((item) => item![1]!.replace(/''/g, "'")) });
  }
  return found;
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Makes each declared column's CHECK allow at least its closed list: a constraint that lacks a value
 * of the list (a list that grew in src/domain/closed-lists.ts) is dropped and added again with the
 * union of the values it had and the list, validated against the stored rows. A start never narrows
 * a CHECK (issue 28 item 4): during a rolling deploy an older build starting after a newer one keeps
 * the newer build's wider list, so the newer build's rows stay valid. Removing a value is a schema
 * change of its own: a migration that moves the rows off it and narrows the constraint (and raises
 * schema_compat.min_generation when older builds would still write it). Runs inside migrate's
 * transaction, after the migrations; answers what it changed (`checks/<constraint>`). An unchanged
 * schema costs one read of pg_constraint.
 */
export async function applyClosedListChecks(trx: Trx, checks: readonly ClosedListCheck[] = CLOSED_LIST_CHECKS): Promise<string[]> {
  const stored = await storedListChecks(trx);
  const changed: string[] = [];
  for (const check of checks) {
    const current = stored.filter((s) => s.table === check.table && s.column === check.column);
    const allowed = current.length === 1 ? current[0]!.values : [];
    if (current.length === 1 && current[0]!.constraint === check.constraint && check.values.every((value) => allowed.includes(value))) continue;
    const widened = [...check.values, ...allowed.filter((value) => !check.values.includes(value))];
    for (const old of current) await sql.raw(`ALTER TABLE ${identifier(check.table)} DROP CONSTRAINT ${identifier(old.constraint)}`).execute(trx);
    await sql
      .raw(`ALTER TABLE ${identifier(check.table)} ADD CONSTRAINT ${identifier(check.constraint)} CHECK (${identifier(check.column)} IN (${widened.map(literal).join(', ')}))`)
      .execute(trx);
    changed.push(`checks/${check.constraint}`);
  }
  return changed;
}
