import type { TransactionRow } from '../db/repos/transactions.repo.ts';
import { publicCounterpart } from '../webhooks/payloads/transaction-event.ts';

/** An amount in BRL with a dot decimal (`1234.56`), from integer cents; never through a float. */
export function decimalBrl(cents: number | bigint): string {
  const value = BigInt(cents);
  const abs = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. Text that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`: a
 * payer's name is typed by strangers (OWASP, "CSV injection").
 */
export function csvField(value: string | null | undefined, text = true): string {
  let out = value ?? '';
  if (text && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replaceAll('"', '""')}"` : out;
}

export const TRANSACTION_CSV_HEADER = 'transactionId,externalId,endToEndId,createdAt,processedAt,type,status,amount,fee,netAmount,counterpartName,counterpartDocument,description\r\n';

/** A transaction as one CSV line: ISO 8601 UTC dates, amounts in BRL with a dot decimal. */
export function transactionCsvLine(tx: TransactionRow): string {
  const cp = publicCounterpart(tx.counterpart);
  return [
    csvField(tx.transaction_id, false),
    csvField(tx.external_id),
    csvField(tx.end_to_end_id, false),
    csvField(tx.created_at.toISOString(), false),
    csvField(tx.processed_at?.toISOString(), false),
    csvField(tx.kind, false),
    csvField(tx.status, false),
    decimalBrl(tx.original_amount),
    decimalBrl(tx.fee_amount),
    decimalBrl(tx.final_amount),
    csvField(cp.name),
    csvField(cp.document),
    csvField(tx.description),
  ].join(',') + '\r\n';
}
