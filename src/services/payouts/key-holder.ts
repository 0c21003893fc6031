import type { DictKey } from '../../domain/pix-keys.ts';
import type { KeyHolder, KeyLookup } from '../../network/pix-network.ts';

/**
 * A key's holder as far as anyone can tell before paying, the same for the API and the portal:
 * the directory's answer, or, when the network has no directory to ask (`unknown_holder`), only
 * what the key itself says (a CPF or CNPJ key is its holder's document); the rest is filled when
 * the payment settles. Undefined: the directory says the key does not exist.
 */
export function holderBeforePaying(key: DictKey, lookup: KeyLookup): { holder: KeyHolder; documentRequired: boolean } | undefined {
  switch (lookup.status) {
    case 'found':
      return { holder: lookup.holder, documentRequired: lookup.documentRequired };
    case 'not_found':
      return undefined;
    case 'unknown_holder': {
      const document = key.type === 'CPF' || key.type === 'CNPJ' ? key.normalized : null;
      return { holder: { name: null, document, bank: { ispb: null, name: null, code: null }, branch: null, account: null }, documentRequired: lookup.documentRequired };
    }
  }
}
