import { sql, type Kysely } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import type { DictKey } from '../../domain/pix-keys.ts';
import type { KeyHolder, KeyLookup } from '../pix-network.ts';
import { bankByIspb, bankFor } from '../../domain/banks.ts';
import { createSharedLookup } from '../../db/shared-lookup.ts';

/**
 * The simulated key directory (decisions 4.10): registered keys answer their holder; the reserved
 * not-found keys answer not found; any other well-formed key resolves to a synthetic holder at a
 * stable bank, with the document the payer sent.
 */
export const NOT_FOUND_KEYS = new Set(['+5511900000000', '00000000-0000-0000-0000-000000000000']);

export function isNotFoundKey(key: DictKey): boolean {
  if (key.type === 'EMAIL') return key.normalized.endsWith('@notfound.example');
  return NOT_FOUND_KEYS.has(key.normalized);
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Isabela', 'João'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Lima', 'Pereira', 'Costa', 'Almeida', 'Ribeiro', 'Gomes'];

function hash(seed: string): number {
  let h = 0;
  for (const ch of seed) h = (h * 33 + ch.charCodeAt(0)) >>> 0;
  return h;
}

export function syntheticHolder(key: DictKey, hint: { name?: string | null; document?: string | null }): KeyHolder {
  const h = hash(key.normalized);
  const bank = bankFor(key.normalized);
  return {
    name: hint.name || `${FIRST[h % FIRST.length]} ${LAST[Math.floor(h / 10) % LAST.length]}`,
    // An invented holder has the document the payer sent (a document key's own, when none was sent);
    // an e-mail, phone or random key asked about without one has no document the directory can say.
    document: hint.document || (key.type === 'CPF' || key.type === 'CNPJ' ? key.normalized : null),
    bank: { ispb: bank.ispb, name: bank.name, code: bank.code },
    branch: String(1 + (h % 9000)).padStart(4, '0'),
    account: `${100000 + (h % 900000)}-${h % 10}`,
  };
}

/** The registered holders of some keys (by their DICT form), in one query. */
async function registeredHolders(db: Kysely<DB>, keys: string[]): Promise<Map<string, KeyHolder>> {
  const rows = (
    await sql<{ key: string; name: string; document: string; ispb: string; branch: string | null; account: string | null }>`
      ${prepared('sandbox_dict_keys_by_key')}SELECT key, name, document, ispb, branch, account FROM sandbox_dict_keys WHERE key = ANY (${keys}::text[])`.execute(db)
  ).rows;
  return new Map(
    rows.map((row) => {
      const bank = bankByIspb(row.ispb);
      return [row.key, { name: row.name, document: row.document, bank: { ispb: row.ispb, name: bank?.name ?? row.ispb, code: bank?.code ?? null }, branch: row.branch, account: row.account }];
    }),
  );
}

/**
 * The simulated directory's look-up. Every call asks the database (a key registered a moment ago
 * is found at once); concurrent look-ups in one event-loop turn share one query.
 */
export function createSandboxKeyDirectory(db: Kysely<DB>) {
  const registered = createSharedLookup((keys: string[]) => registeredHolders(db, keys));
  return async function lookupKey(key: DictKey, hint: { name?: string | null; document?: string | null } = {}): Promise<KeyLookup> {
    // The simulator pays a key with or without the payer naming its holder's document.
    const holder = await registered(key.normalized);
    if (holder) return { status: 'found', holder, documentRequired: false };
    if (isNotFoundKey(key)) return { status: 'not_found' };
    return { status: 'found', holder: syntheticHolder(key, hint), documentRequired: false };
  };
}
