import { type AccountClockScope } from '../services/test-clocks/account-time.ts';
import type { Claimed } from './steps.ts';

/**
 * Claimed jobs by the clock they run on (undefined: the service clock), in claim order: a job of an
 * account on a sandbox test clock runs on that clock's time, and never in one batch with another
 * clock's jobs (issue 29 item 3, migration 1500).
 */
export function byClock(rows: Claimed[]): Array<[AccountClockScope | undefined, Claimed[]]> {
  const groups = new Map<string, { scope: AccountClockScope | undefined; rows: Claimed[] }>();
  for (const row of rows) {
    const key = row.clock_id && row.clock_time ? row.clock_id : '';
    const group = groups.get(key) ?? { scope: key === '' ? undefined : { clockId: key, time: new Date(row.clock_time!) }, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => [g.scope, g.rows]);
}
