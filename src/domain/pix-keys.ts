import { isValidCnpj, isValidCpf } from './documents.ts';
import { PUBLIC_KEY_TYPES, type DictKeyType, type PublicKeyType, type SplitKeyType } from './closed-lists.ts';

/**
 * PIX keys in the two families' spellings. The public family sends a key plus its type, without
 * country code or hyphens as the client likes; the compatible family uses DICT's canonical form.
 * Both map to the DICT form so one key directory serves both.
 */

export type { DictKeyType, PublicKeyType };
export type DictKey = { type: DictKeyType; normalized: string };
export type KeyCheck = { ok: true; normalized: string } | { ok: false; reason: string };

/** DICT's limit for every key, and the one the spec gives for e-mail keys. */
const MAX_KEY_LENGTH = 77;

// Dots only between atoms; DICT compares e-mail keys in lower case.
const EMAIL_ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// At least one dot in the domain: a bare host cannot receive mail from the internet.
const EMAIL = new RegExp(`^${EMAIL_ATOM}(?:\\.${EMAIL_ATOM})*@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})+$`);

// Area code 11-99, then an 8-digit landline or a 9-digit mobile number.
const NATIONAL_PHONE = /^(?:1[1-9]|[2-9]\d)\d{8,9}$/;
const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_BARE = /^[0-9a-f]{32}$/i;

const fail = (reason: string): KeyCheck => ({ ok: false, reason });
const pass = (normalized: string): KeyCheck => ({ ok: true, normalized });

// An alphanumeric CNPJ (IN RFB 2.229/2024, API Pix 2.9.0): 12 of [0-9A-Z], then 2 numeric check digits.
// Lower case is the shape's only variant worth a message of its own: the key is upper case only.
const CNPJ_SHAPE_ANY_CASE = /^[0-9A-Za-z]{12}\d{2}$/;
const ALPHANUMERIC_CNPJ = /^[0-9A-Z]{12}\d{2}$/;

function checkDocument(key: string): KeyCheck {
  if (key.length === 14 && CNPJ_SHAPE_ANY_CASE.test(key)) {
    if (!ALPHANUMERIC_CNPJ.test(key)) return fail('A CNPJ key must be in upper case (its letters A-Z).');
    return isValidCnpj(key) ? pass(key) : fail('The CNPJ key has invalid check digits.');
  }
  if (!/^\d+$/.test(key)) return fail('A DOCUMENT key must contain digits only (an alphanumeric CNPJ: 12 digits or upper-case letters, then 2 digits).');
  if (key.length === 11) return isValidCpf(key) ? pass(key) : fail('The CPF key has invalid check digits.');
  return fail('A DOCUMENT key must have 11 digits (CPF) or 14 characters (CNPJ).');
}

function checkEmail(key: string): KeyCheck {
  if (key.length > MAX_KEY_LENGTH) return fail(`An EMAIL key must have at most ${MAX_KEY_LENGTH} characters.`);
  const lower = key.toLowerCase();
  return EMAIL.test(lower) ? pass(lower) : fail('An EMAIL key must be a valid e-mail address.');
}

function checkPhone(key: string): KeyCheck {
  if (key.startsWith('+')) return fail('A PHONE key must not include the country code.');
  if (!/^\d{10,11}$/.test(key)) return fail('A PHONE key must have 10 or 11 digits (area code and number).');
  return NATIONAL_PHONE.test(key) ? pass(key) : fail('A PHONE key must start with an area code from 11 to 99.');
}

function checkRandom(key: string): KeyCheck {
  if (UUID_HYPHENATED.test(key)) return pass(key.toLowerCase());
  if (UUID_BARE.test(key)) {
    const h = key.toLowerCase();
    return pass(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
  }
  return fail('A RANDOM key must be a UUID, with or without hyphens.');
}

/** Keys of `POST /api/pix/cash-out` (interface spec, "Key formats"). */
export function validatePublicKey(key: string, type: PublicKeyType): KeyCheck {
  if (typeof key !== 'string' || key.length === 0) return fail('The key must not be empty.');
  switch (type) {
    case 'DOCUMENT':
      return checkDocument(key);
    case 'EMAIL':
      return checkEmail(key);
    case 'PHONE':
      return checkPhone(key);
    case 'RANDOM':
      return checkRandom(key);
    default:
      return fail('The key type must be DOCUMENT, EMAIL, PHONE or RANDOM.');
  }
}

/**
 * The compatible family sends keys without a type, so the form decides: `+55...` phone, `@`
 * e-mail, hyphenated UUID EVP, 11 digits CPF, 14 characters CNPJ (digits or upper-case letters, then
 * two check digits). The forms do not overlap, so the first
 * match is the only one. Returns undefined for anything else, including bad check digits.
 */
export function detectDictKey(key: string): DictKey | undefined {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return undefined;
  if (key.startsWith('+55')) {
    const national = key.slice(3);
    return NATIONAL_PHONE.test(national) ? { type: 'PHONE', normalized: key } : undefined;
  }
  if (key.includes('@')) {
    const email = checkEmail(key);
    return email.ok ? { type: 'EMAIL', normalized: email.normalized } : undefined;
  }
  if (UUID_HYPHENATED.test(key)) return { type: 'EVP', normalized: key.toLowerCase() };
  if (/^\d{11}$/.test(key)) return isValidCpf(key) ? { type: 'CPF', normalized: key } : undefined;
  if (ALPHANUMERIC_CNPJ.test(key)) return isValidCnpj(key) ? { type: 'CNPJ', normalized: key } : undefined;
  return undefined;
}

/** A public-family key in its DICT form: PHONE gains +55, RANDOM is an EVP, DOCUMENT a CPF/CNPJ. */
export function toDictKey(key: string, publicType: PublicKeyType): DictKey | undefined {
  const check = validatePublicKey(key, publicType);
  if (!check.ok) return undefined;
  const k = check.normalized;
  switch (publicType) {
    case 'DOCUMENT':
      return { type: k.length === 11 ? 'CPF' : 'CNPJ', normalized: k };
    case 'EMAIL':
      return { type: 'EMAIL', normalized: k };
    case 'PHONE':
      return { type: 'PHONE', normalized: `+55${k}` };
    case 'RANDOM':
      return { type: 'EVP', normalized: k };
  }
}

/** The key types a cash-in split names (the spec's list: CPF and CNPJ instead of DOCUMENT). */
export type { SplitKeyType } from './closed-lists.ts';
const SPLIT_TO_PUBLIC: Record<SplitKeyType, PublicKeyType> = { EMAIL: 'EMAIL', PHONE: 'PHONE', CPF: 'DOCUMENT', CNPJ: 'DOCUMENT', RANDOM: 'RANDOM' };

/** A split's key in its DICT form; undefined when it is not a key of that type (a CNPJ typed CPF included). */
export function splitDictKey(key: string, type: SplitKeyType): DictKey | undefined {
  const publicType = SPLIT_TO_PUBLIC[type];
  if (publicType === undefined) return undefined;
  const dict = toDictKey(key, publicType);
  if (!dict || (publicType === 'DOCUMENT' && dict.type !== type)) return undefined;
  return dict;
}

const PUBLIC_KEY_TYPE_SET = new Set<string>(PUBLIC_KEY_TYPES);

/**
 * A key typed in either family's words (DICT's CPF/CNPJ/EMAIL/PHONE/EVP or the public DOCUMENT/RANDOM/
 * EMAIL/PHONE), in its DICT form; undefined when it is not a key of that type (the sandbox directory).
 */
export function directoryKey(key: string, type: DictKeyType | PublicKeyType): DictKey | undefined {
  const dict = detectDictKey(key);
  const sameType =
    dict !== undefined &&
    (dict.type === type || (type === 'DOCUMENT' && (dict.type === 'CPF' || dict.type === 'CNPJ')) || (type === 'RANDOM' && dict.type === 'EVP'));
  if (sameType) return dict;
  if (PUBLIC_KEY_TYPE_SET.has(type)) return toDictKey(key, type as PublicKeyType);
  return undefined;
}
