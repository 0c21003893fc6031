import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { FUNCTIONS_FOLDER } from '../../src/db/function-sources.ts';
import { migrate } from '../../src/db/migrate.ts';
import { DEBIT_KINDS, FINAL_TRANSACTION_STATUSES, MED_STATUSES, TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../src/domain/closed-lists.ts';
import { MAX_AMOUNT, MAX_AMOUNT_BRL, MAX_AMOUNT_GROUPED, MAX_AMOUNT_TEXT } from '../../src/domain/money.ts';
import { Amount, AmountOrZero, DecimalAmount } from '../../src/http/schemas/common.ts';
import { FAILURE_WINDOW_SECONDS } from '../../src/services/auth/failure-limits.ts';
import { isFinalMedStatus } from '../../src/services/med/med-state-machine.ts';
import { movementOf } from '../../src/webhooks/payloads/transaction-event.ts';

/**
 * Issue 28 item 5: each rule that was written twice has one home. In TypeScript the home is one
 * exported constant or function and no other file writes the rule again; where the database holds a
 * copy (a CHECK, a function body), that copy is read back here and compared with the TypeScript home.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
/** A file's code without its comments (a comment may name the rule; only code may state it). */
const codeOf = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const functionText = (name: string) => readFileSync(path.join(FUNCTIONS_FOLDER, `${name}.sql`), 'utf8').replace(/--.*$/gm, '');
/** Files of src/ (other than `home`) whose code matches. */
const writtenOutside = (home: string, pattern: RegExp) =>
  sourceFiles(SRC)
    .filter((file) => path.relative(SRC, file) !== home && pattern.test(codeOf(file)))
    .map((file) => path.relative(SRC, file));

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await migrate(database.db);
});
afterAll(() => database.close());

describe('the maximum amount: domain/money.ts', () => {
  it('no other file of src/ writes the maximum (in cents, in reais, as text or grouped)', () => {
    expect(writtenOutside('domain/money.ts', /99_?999_?999_?999\b|999_?999_?999\.99|999,999,999\.99/)).toEqual([]);
  });

  it('the edges derive from it: the JSON schemas, the compatible family\'s text, the refusal', () => {
    expect(MAX_AMOUNT).toBe(99_999_999_999);
    expect([Amount().maximum, AmountOrZero().maximum]).toEqual([MAX_AMOUNT_BRL, MAX_AMOUNT_BRL]);
    expect(MAX_AMOUNT_BRL).toBe(999_999_999.99);
    expect(DecimalAmount().description).toContain(MAX_AMOUNT_TEXT);
    expect([MAX_AMOUNT_TEXT, MAX_AMOUNT_GROUPED]).toEqual(['999999999.99', '999,999,999.99']);
  });

  it('the admission\'s SQL holds no copy: it compares with p_max_amount, which the admission passes as MAX_AMOUNT', () => {
    // admit_payouts, the functions of its phases (admission_*.sql, where the write path splits it) and the item check.
    const admission = readdirSync(FUNCTIONS_FOLDER).filter((f) => /^(admit_payouts|admission_\w+|debit_item_check)\.sql$/.test(f));
    expect(admission).toContain('debit_item_check.sql');
    for (const file of admission) expect(functionText(file.replace(/\.sql$/, '')), file).not.toMatch(/9{9,}/);
    expect(functionText('debit_item_check')).toMatch(/>\s*p_max_amount/);
    expect(readFileSync(path.join(SRC, 'services/payouts/payout-admission.ts'), 'utf8')).toMatch(/\$\{MAX_AMOUNT\}::bigint/);
  });
});

describe('the refundable reservation: refunds.repo.ts reserveRefundable', () => {
  it('no other file of src/ grows refunded_amount or states what is left to refund', () => {
    expect(writtenOutside('services/refunds/refunds.repo.ts', /refunded_amount\s*\+/)).toEqual([]);
    expect(writtenOutside('services/refunds/refund-rules.ts', /original_amount\s*-\s*\w*\.?refunded_amount/)).toEqual([]);
  });

  it('the database\'s guard says the same as the reservation: never below 0, never above the original amount', async () => {
    const { rows } = await sql<{ definition: string }>`
      SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
       WHERE c.conrelid = 'transactions'::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%refunded_amount%'`.execute(database.db);
    expect(rows.map((r) => r.definition)).toEqual(['CHECK (((refunded_amount >= 0) AND (refunded_amount <= original_amount)))']);
  });
});

describe('debit or credit: DEBIT_KINDS', () => {
  it('a kind moves money out exactly when it is a debit kind, and no file of src/ names the debit (or credit) kinds again', () => {
    expect(TRANSACTION_KINDS.map(movementOf)).toEqual(TRANSACTION_KINDS.map((k) => ((DEBIT_KINDS as readonly string[]).includes(k) ? 'DEBIT' : 'CREDIT')));
    const pair = (a: string, b: string) => `'${a}'[^;\\n]{0,40}(&&|\\|\\|)[^;\\n]{0,40}'${b}'|\\['${a}',\\s*'${b}'\\]`;
    const twice = new RegExp([pair('WITHDRAW', 'REFUND_IN'), pair('REFUND_IN', 'WITHDRAW'), pair('PAYMENT', 'REFUND_OUT'), pair('REFUND_OUT', 'PAYMENT')].join('|'));
    expect(writtenOutside('domain/closed-lists.ts', twice)).toEqual([]);
  });
});

describe('PENDING to final, the final MED states, the failure window', () => {
  it('a transaction ends in one of FINAL_TRANSACTION_STATUSES: every status but PENDING', () => {
    expect([...FINAL_TRANSACTION_STATUSES]).toEqual(TRANSACTION_STATUSES.filter((s) => s !== 'PENDING'));
  });

  it('the final MED states come from the state machine (no move out of them), and no file lists them again', () => {
    expect(MED_STATUSES.filter(isFinalMedStatus)).toEqual(['CANCELLED', 'ANALYZED']);
    expect(writtenOutside('services/med/med-state-machine.ts', /status\s*===\s*'(CANCELLED|ANALYZED|OPEN|RECEIVED)'\s*\|\|\s*\w+(\.\w+)*\s*===\s*'(CANCELLED|ANALYZED|OPEN|RECEIVED)'/)).toEqual([]);
  });

  it('the failure window: record_auth_failure holds no copy, it is given FAILURE_WINDOW_SECONDS as p_window_s', () => {
    const body = functionText('record_auth_failure');
    expect(body).not.toMatch(/interval\s*'|secs\s*=>\s*\d|\b900\b/);
    expect(body.match(/make_interval\(secs => (\w+)\)/g)).toEqual(['make_interval(secs => p_window_s)', 'make_interval(secs => p_window_s)']);
    expect(readFileSync(path.join(SRC, 'services/auth/failure-limits.ts'), 'utf8')).toMatch(/\$\{FAILURE_WINDOW_SECONDS\}::int/);
    expect(FAILURE_WINDOW_SECONDS).toBe(15 * 60);
  });
});
