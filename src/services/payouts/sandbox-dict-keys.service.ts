import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { directoryKey, type DictKeyType, type PublicKeyType } from '../../domain/pix-keys.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';
import { bankByIspb } from '../../domain/banks.ts';
import { isDocument } from './cash-out.service.ts';

export interface RegisterKeyInput {
  key: string;
  keyType: DictKeyType | PublicKeyType;
  name: string;
  document: string;
  ispb: string;
  branch?: string;
  account?: string;
}

/** `POST /sandbox/dict/keys`: puts a holder in the simulated key directory (replacing any earlier one). */
export function createSandboxDictKeys(deps: { db: Kysely<DB>; clock: Clock }) {
  async function register(input: RegisterKeyInput) {
    const problems: string[] = [];
    const key = directoryKey(input.key, input.keyType);
    if (!key) problems.push(`key is not a valid ${input.keyType} key`);
    if (!isDocument(input.document)) problems.push('document must be a valid CPF (11 digits) or CNPJ (14 digits)');
    const bank = bankByIspb(input.ispb);
    if (!bank) problems.push('ispb must be the ISPB of a known PIX participant');
    if (problems.length > 0) throw new ValidationError(problems);
    if (await accountsRepo.byKey(deps.db, key!.normalized)) {
      throw new DomainError('CONFLICT', undefined, 'The key belongs to an account of this service');
    }
    const row = {
      key: key!.normalized,
      key_type: key!.type,
      name: input.name,
      document: input.document,
      ispb: input.ispb,
      branch: input.branch ?? null,
      account: input.account ?? null,
      created_at: deps.clock.now(),
    };
    await deps.db
      .insertInto('sandbox_dict_keys')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ key_type: row.key_type, name: row.name, document: row.document, ispb: row.ispb, branch: row.branch, account: row.account }))
      .execute();
    return { key: row.key, keyType: row.key_type, name: row.name, document: row.document, ispb: row.ispb, bankName: bank!.name, branch: row.branch, account: row.account };
  }
  return { register };
}
