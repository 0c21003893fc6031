import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as lists from '../../src/domain/closed-lists.ts';

/**
 * Issue 28 item 5: every closed list has one home, src/domain/closed-lists.ts. A type written as a
 * union of string literals that are exactly the values of one closed list anywhere else in src/ is
 * the list re-typed: it must import the list's type instead. (The TypeBox schemas build their
 * enums from the lists too; a literal alone, as one value in code, is not a re-typed list.)
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const HOME = path.join(SRC, 'domain', 'closed-lists.ts');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const closedLists: Array<{ name: string; values: readonly string[] }> = (Object.entries(lists) as Array<[string, unknown]>)
  .filter((entry): entry is [string, readonly string[]] => Array.isArray(entry[1]) && entry[1].every((v: unknown) => typeof v === 'string'))
  .map(([name, values]) => ({ name, values }));

/**
 * A list re-typed: a union of two or more string literals (`'A' | 'B' | 'C'`), an array of them
 * (`['A', 'B', 'C']`, in any order), or a TypeBox union of their literals.
 */
const UNION = /'[A-Za-z_]+'(?:\s*\|\s*'[A-Za-z_]+')+/g;
const ARRAY = /\[\s*'[A-Za-z_]+'(?:\s*,\s*'[A-Za-z_]+')+\s*,?\s*\]/g;
const LITERALS = /Type\.Union\(\[\s*Type\.Literal\('[A-Za-z_]+'\)(?:\s*,\s*Type\.Literal\('[A-Za-z_]+'\))+/g;

function retyped(text: string): Array<{ union: string; list: string }> {
  const found: Array<{ union: string; list: string }> = [];
  for (const match of [...text.matchAll(UNION), ...text.matchAll(ARRAY), ...text.matchAll(LITERALS)]) {
    const members = [...match[0].matchAll(/'([A-Za-z_]+)'/g)].map((m) => m[1]!);
    // The whole list (a narrower union of some of its values is a type of its own).
    const list = closedLists.find((l) => members.length === l.values.length && members.every((m) => l.values.includes(m)));
    if (list) found.push({ union: match[0], list: list.name });
  }
  return found;
}

describe('closed lists have one home', () => {
  it('no file of src/ re-types a closed list as a union of its values', () => {
    const offenders = tsFiles(SRC)
      .filter((file) => file !== HOME)
      .flatMap((file) => retyped(readFileSync(file, 'utf8')).map((r) => `${path.relative(SRC, file)}: ${r.union} (use ${r.list}'s type)`));
    expect(offenders).toEqual([]);
  });

  it('the check finds a re-typed list and leaves other unions alone', () => {
    expect(retyped("type S = 'ERROR' | 'PENDING' | 'CONFIRMED';\ntype T = 'PENDING' | 'CONFIRMED';\nconst mode: 'sandbox' | 'production' = x;")).toEqual([
      { union: "'ERROR' | 'PENDING' | 'CONFIRMED'", list: 'TRANSACTION_STATUSES' },
    ]);
  });

  it('the check finds a list re-typed as an array (any order) or as a TypeBox union of literals, and leaves part of a list alone', () => {
    expect(retyped("const K = ['REFUND_IN', 'WITHDRAW'] as const;\nconst C = new Set(['PAYMENT', 'REFUND_OUT']);")).toEqual([{ union: "['REFUND_IN', 'WITHDRAW']", list: 'DEBIT_KINDS' }]);
    expect(retyped("status: Type.Union([Type.Literal('OPEN'), Type.Literal('RECEIVED'), Type.Literal('CANCELLED'), Type.Literal('ANALYZED')]),")).toEqual([
      { union: "Type.Union([Type.Literal('OPEN'), Type.Literal('RECEIVED'), Type.Literal('CANCELLED'), Type.Literal('ANALYZED')", list: 'MED_STATUSES' },
    ]);
    expect(retyped("status: Type.Union([Type.Literal('OPEN'), Type.Literal('ASSIGNED')])")).toEqual([]);
  });
});
