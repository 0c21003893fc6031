import { readFileSync } from 'node:fs';

/**
 * A participant of the PIX network (from the public ISPB list shipped beside this file): reference
 * data every adapter and service reads (names of payers' and payees' banks), not the simulator's own.
 */
export interface Bank {
  ispb: string;
  code: string | null;
  name: string;
}

// ispb-sample.csv: a public-domain subset of the central bank's participant list (see SOURCE note in
// docs/decisions.md). Columns: ispb,compe,cnpj,short_name,long_name,pix_type,pix_start.
const rows = readFileSync(new URL('./ispb-sample.csv', import.meta.url), 'utf8').trim().split('\n').slice(1);

export const banks: readonly Bank[] = rows.map((line) => {
  const cols = line.split(',');
  return { ispb: cols[0]!, code: cols[1] || null, name: cols[4] || cols[3]! };
});

const byIspb = new Map(banks.map((b) => [b.ispb, b]));

export function bankByIspb(ispb: string): Bank | undefined {
  return byIspb.get(ispb);
}

/** A stable pick for a value (a key, a document), so one key always lives at one bank. */
export function bankFor(seed: string): Bank {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return banks[h % banks.length]!;
}
