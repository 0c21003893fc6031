import { isValidCpf } from '../documents.ts';
import { validatePublicKey, type PublicKeyType } from '../pix-keys.ts';

/**
 * A PIX key as people paste it into a banking app (issue 30 item 1), turned into the form the API
 * takes (`POST /api/pix/cash-out`'s key formats). The API keeps the spec's strict formats; only the
 * portal forgives the way keys are written:
 *  - PHONE: `+55 11 98765-4321`, `+5511987654321`, `(11) 98765-4321`, `11 98765 4321`, `5511...`,
 *    `011...` all become `11987654321`; a foreign country code is refused (only Brazilian numbers
 *    are PIX keys);
 *  - DOCUMENT: dots, dashes, slash and spaces dropped, letters upper-cased (CPF and CNPJ);
 *  - EMAIL: trimmed and lower-cased;
 *  - RANDOM: either case, with or without hyphens (the API's own rule), lower-cased.
 * Without a chosen type the form tells it: `@` is an e-mail, a UUID an EVP, a `+` or parentheses a
 * phone, a valid CPF a CPF, 14 characters a CNPJ, otherwise a phone; 11 bare digits that are both a
 * valid CPF and a mobile number are ambiguous and the member is asked.
 */
export type PastedKeyProblem = 'empty' | 'ambiguous' | 'foreignPhone' | 'invalid';

export type PastedKey =
  | { ok: true; type: PublicKeyType; key: string }
  | { ok: false; problem: PastedKeyProblem; /** The type the key was read as (absent when ambiguous or empty). */ type?: PublicKeyType };

// Spaces people paste with a key: ordinary, non-breaking, zero-width (copied from chats and PDFs).
const INVISIBLE = /[\s\u00a0\u200b-\u200d\u2060\ufeff]/g;
const PHONE_PUNCTUATION = /[\s\u00a0().\-]/g;
const DOCUMENT_PUNCTUATION = /[\s\u00a0.\-/]/g;
const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_BARE = /^[0-9a-f]{32}$/i;
/** A Brazilian mobile number: area code 11-99, then 9 and eight digits. */
const MOBILE = /^(?:1[1-9]|[2-9]\d)9\d{8}$/;
/** A CPF written the usual way, `111.444.777-35`: never a phone. */
const FORMATTED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;

const accept = (type: PublicKeyType, raw: string): PastedKey => {
  const check = validatePublicKey(raw, type);
  return check.ok ? { ok: true, type, key: check.normalized } : { ok: false, problem: 'invalid', type };
};

function phone(text: string): PastedKey {
  let digits = text.replace(PHONE_PUNCTUATION, '');
  if (digits.startsWith('+')) {
    if (!digits.startsWith('+55')) return /^\+\d+$/.test(digits) ? { ok: false, problem: 'foreignPhone', type: 'PHONE' } : { ok: false, problem: 'invalid', type: 'PHONE' };
    digits = digits.slice(3);
  } else if (/^55\d{10,11}$/.test(digits)) {
    // The country code without its +: 12 or 13 digits never make a national number.
    digits = digits.slice(2);
  } else if (/^0\d{10,11}$/.test(digits)) {
    // The trunk prefix of a long-distance call (0 11 98765-4321).
    digits = digits.slice(1);
  }
  return accept('PHONE', digits);
}

const documentKey = (text: string) => accept('DOCUMENT', text.replace(DOCUMENT_PUNCTUATION, '').toUpperCase());

function byForm(text: string): PastedKey {
  if (text.includes('@')) return accept('EMAIL', text.replace(INVISIBLE, '').toLowerCase());
  const compact = text.replace(INVISIBLE, '');
  if (UUID_HYPHENATED.test(compact) || UUID_BARE.test(compact)) return accept('RANDOM', compact);
  if (compact.startsWith('+') || compact.includes('(')) return phone(text);
  if (FORMATTED_CPF.test(compact)) return documentKey(compact);
  const bare = compact.replace(DOCUMENT_PUNCTUATION, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    const cpf = isValidCpf(bare);
    const mobile = MOBILE.test(bare);
    if (cpf && mobile) return { ok: false, problem: 'ambiguous' };
    if (cpf) return documentKey(bare);
    return phone(bare);
  }
  // 14 characters is a CNPJ (digits, or letters and digits since IN RFB 2.229/2024).
  if (/^[0-9A-Z]{14}$/.test(bare)) return documentKey(bare);
  return phone(text);
}

/** The key to send, and its type: the chosen one, or the one its form tells. */
export function normalisePastedKey(raw: string, chosen?: PublicKeyType): PastedKey {
  const text = raw.replace(/^[\s\u00a0\u200b-\u200d\u2060\ufeff]+|[\s\u00a0\u200b-\u200d\u2060\ufeff]+$/g, '');
  if (text === '') return { ok: false, problem: 'empty', ...(chosen ? { type: chosen } : {}) };
  switch (chosen) {
    case 'EMAIL':
      return accept('EMAIL', text.replace(INVISIBLE, '').toLowerCase());
    case 'RANDOM':
      return accept('RANDOM', text.replace(INVISIBLE, ''));
    case 'DOCUMENT':
      return documentKey(text);
    case 'PHONE':
      return phone(text);
    default:
      return byForm(text);
  }
}
