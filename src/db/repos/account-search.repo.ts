import type { Kysely } from 'kysely';
import { paginate } from '../paginate.ts';
import type { DB } from '../schema.ts';

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (m) => `\\${m}`);

/**
 * Accounts whose name contains `q` (any case), whose document is `q` (punctuation ignored), whose id
 * is `q`, or that own the PIX key `q` (their EVP or any key registered to them); newest first. No
 * `q`: every account.
 */
export async function searchAccounts(db: Kysely<DB>, q: string | undefined, asked: { page: number; pageSize: number }) {
  let query = db.selectFrom('accounts').selectAll().orderBy('id', 'desc');
  const text = q?.trim() ?? '';
  if (text) {
    const document = text.replace(/[.\-/\s]/g, '').toUpperCase();
    const id = /^\d{1,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
    // Keys are stored in their DICT form: e-mails in lower case, the rest as written.
    const keys = [...new Set([text, text.toLowerCase()])];
    query = query.where((eb) =>
      eb.or([
        eb('name', 'ilike', `%${likeEscaped(text)}%`),
        ...(/^[0-9A-Z]{11,14}$/.test(document) ? [eb('document', '=', document)] : []),
        ...(id !== undefined ? [eb('id', '=', id)] : []),
        eb('pix_key', 'in', keys),
        eb('id', 'in', eb.selectFrom('account_keys').select('account_id').where('key', 'in', keys)),
      ]),
    );
  }
  return paginate(query, asked);
}
