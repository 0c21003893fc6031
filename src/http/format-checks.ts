import type { Ajv, ErrorObject } from 'ajv';
import { isValidCnpj, isValidCpf } from '../domain/documents.ts';
import { centsFromDecimalString, MAX_AMOUNT, MAX_AMOUNT_TEXT } from '../domain/money.ts';
import { bankByIspb } from '../domain/banks.ts';
import { detectDictKey, directoryKey, splitDictKey, validatePublicKey, type DictKeyType, type PublicKeyType, type SplitKeyType } from '../domain/pix-keys.ts';
import { webhookRegistrationProblems, type Mode } from '../webhooks/url-policy.ts';
import { DICT_KEY_TYPES, PUBLIC_KEY_TYPES, SPLIT_KEY_TYPES } from '../domain/closed-lists.ts';

/**
 * The domain's format rules (check digits, key formats, amount and date ranges) as schema formats and
 * keywords, so they run inside schema validation: every invalid field is reported in one answer, one
 * text per field, whatever rule it broke. The services keep their own checks for other callers.
 */

/** Earliest and latest dates the service answers about: wide enough for any real query. */
export const FIRST_DATE = '1970-01-01';
export const LAST_DATE = '2999-12-31';
const FIRST_MS = Date.parse(`${FIRST_DATE}T00:00:00.000Z`);
const LAST_MS = Date.parse(`${LAST_DATE}T23:59:59.999Z`);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time (as ajv-formats' `date-time`): a zone is required.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A real calendar day (2026-02-30 is not), within FIRST_DATE..LAST_DATE. */
function isBoundedDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text && ms >= FIRST_MS && ms <= LAST_MS;
}

/** An RFC 3339 date-time with a real day and time, whose instant is within FIRST_DATE..LAST_DATE. */
function isBoundedDateTime(text: string): boolean {
  const m = ISO_DATE_TIME.exec(text);
  if (!m || !isBoundedDate(`${m[1]}-${m[2]}-${m[3]}`)) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60) return false;
  const ms = Date.parse(text.replace(' ', 'T'));
  return Number.isFinite(ms) && ms >= FIRST_MS && ms <= LAST_MS;
}

/** A compatible-family amount ("123.45"): two decimals, 0.01 to 999999999.99 (a BR Code holds no more). */
function isDecimalAmount(text: string): boolean {
  const amount = centsFromDecimalString(text);
  return amount !== undefined && amount >= 1 && amount <= MAX_AMOUNT;
}

/**
 * 1 to 35 characters (code points), none of them a control, format or unassigned character, and no
 * white space at either end. Letters and digits only is also the devolução id (services/refunds).
 */
export function isRefundExternalId(text: string): boolean {
  const length = [...text].length;
  return length >= 1 && length <= 35 && !/\p{C}/u.test(text) && text.trim() === text;
}

export const formatChecks: Record<string, { validate: (value: string) => boolean; message: string }> = {
  document: { validate: (v) => isValidCpf(v) || isValidCnpj(v), message: 'must be a valid CPF (11 digits) or CNPJ (14 characters)' },
  cpf: { validate: isValidCpf, message: 'must be a valid CPF of exactly 11 digits' },
  cnpj: { validate: isValidCnpj, message: 'must be a valid CNPJ' },
  'dict-key': {
    validate: (v) => detectDictKey(v) !== undefined,
    message: 'must be a valid PIX key: CPF (11 digits), CNPJ (14), e-mail, phone as +55 plus area code and number, or EVP (UUID)',
  },
  // A refund-in's externalId as the provider's API takes it (any string; its ids are at most 35).
  'refund-external-id': { validate: isRefundExternalId, message: 'must be 1 to 35 printable characters, without spaces at either end' },
  // The sandbox's participant directory: a payer or key holder must be at a known PIX participant.
  'pix-participant': { validate: (v) => bankByIspb(v) !== undefined, message: 'must be the ISPB of a known PIX participant' },
  'decimal-amount': { validate: isDecimalAmount, message: `must be an amount from 0.01 to ${MAX_AMOUNT_TEXT} written with two decimals (e.g. "10.00")` },
  // ajv-formats' `date` and `date-time` replaced: every input date is bounded (year 9999 once reached SQL).
  date: { validate: isBoundedDate, message: `must be an ISO 8601 date (YYYY-MM-DD) from ${FIRST_DATE} to ${LAST_DATE}` },
  'date-time': { validate: isBoundedDateTime, message: `must be an ISO 8601 date-time with a time zone, from ${FIRST_DATE} to ${LAST_DATE}` },
  'date-or-date-time': {
    validate: (v) => isBoundedDate(v) || isBoundedDateTime(v),
    message: `must be an ISO 8601 date (YYYY-MM-DD) or date-time, from ${FIRST_DATE} to ${LAST_DATE}`,
  },
};

/**
 * `x-pix-key` on an object: its key field must be a key of the type its type field names. It names the
 * key field; an unknown type is left to the type field's own enum.
 */
export interface PixKeyRule {
  key: string;
  type: string;
  /**
   * `public`: DOCUMENT/EMAIL/PHONE/RANDOM (cash-out); `split`: EMAIL/PHONE/CPF/CNPJ/RANDOM (cash-in
   * splits); `directory`: either family's types (the sandbox key directory).
   */
  family: 'public' | 'split' | 'directory';
}

const PUBLIC_TYPES = new Set<string>(PUBLIC_KEY_TYPES);
const SPLIT_TYPES = new Set<string>(SPLIT_KEY_TYPES);
const DICT_TYPES = new Set<string>(DICT_KEY_TYPES);

function pixKeyProblem(rule: PixKeyRule, key: string, type: string): string | undefined {
  if (rule.family === 'public') {
    if (!PUBLIC_TYPES.has(type)) return undefined;
    const check = validatePublicKey(key, type as PublicKeyType);
    return check.ok ? undefined : `is invalid for keyType ${type}: ${check.reason}`;
  }
  if (rule.family === 'directory') {
    if (!PUBLIC_TYPES.has(type) && !DICT_TYPES.has(type)) return undefined;
    return directoryKey(key, type as DictKeyType | PublicKeyType) ? undefined : `is not a valid ${type} key`;
  }
  if (!SPLIT_TYPES.has(type)) return undefined;
  return splitDictKey(key, type as SplitKeyType) ? undefined : `is not a valid ${type} key`;
}

function pixKeyKeyword(rule: PixKeyRule, data: Record<string, unknown>, _parent: unknown, cxt?: { instancePath: string }): boolean {
  const key = data[rule.key];
  const type = data[rule.type];
  if (typeof key !== 'string' || typeof type !== 'string') return true;
  const problem = pixKeyProblem(rule, key, type);
  if (problem === undefined) return true;
  const error: ErrorObject = { keyword: 'x-pix-key', instancePath: `${cxt?.instancePath ?? ''}/${rule.key}`, schemaPath: '', params: {}, message: problem };
  (pixKeyKeyword as { errors?: ErrorObject[] }).errors = [error];
  return false;
}

/**
 * `x-webhook-registration` on a registration body: the URL and header rules of the service's mode
 * (src/webhooks/url-policy.ts), each naming its field, beside the schema's own errors.
 */
function webhookRegistrationKeyword(rule: { mode: Mode }, data: Record<string, unknown>, _parent: unknown, cxt?: { instancePath: string }): boolean {
  const problems = webhookRegistrationProblems(data, rule.mode);
  if (problems.length === 0) return true;
  (webhookRegistrationKeyword as { errors?: ErrorObject[] }).errors = problems.map((p) => ({
    keyword: 'x-webhook-registration',
    instancePath: `${cxt?.instancePath ?? ''}${p.path.map((k) => `/${k}`).join('')}`,
    schemaPath: '',
    params: {},
    message: p.message,
  }));
  return false;
}

/**
 * `x-one-of-fields: [name, alias]` on an object: exactly one of the two fields (a field and its older
 * alias): neither is "name is required", both names the alias. The OpenAPI document states the same
 * rule as a standard `oneOf` of two `required` lists (src/http/openapi/document.ts).
 */
function oneOfFieldsKeyword(fields: [string, string], data: Record<string, unknown>, _parent: unknown, cxt?: { instancePath: string }): boolean {
  const [name, alias] = fields;
  const present = fields.filter((f) => data[f] !== undefined);
  if (present.length === 1) return true;
  const error: ErrorObject =
    present.length === 0
      ? { keyword: 'x-one-of-fields', instancePath: `${cxt?.instancePath ?? ''}/${name}`, schemaPath: '', params: {}, message: `is required (${alias} is accepted as its alias)` }
      : { keyword: 'x-one-of-fields', instancePath: `${cxt?.instancePath ?? ''}/${alias}`, schemaPath: '', params: {}, message: `must not be sent with ${name} (it is an alias of ${name}: send one of them)` };
  (oneOfFieldsKeyword as { errors?: ErrorObject[] }).errors = [error];
  return false;
}

/** Any ajv instance (draft-07 or 2020-12): only its format and keyword registries are used. */
export type FormatRegistry = Pick<Ajv, 'addFormat' | 'addKeyword'>;

export function addFormatChecks(ajv: FormatRegistry): void {
  for (const [name, check] of Object.entries(formatChecks)) ajv.addFormat(name, { type: 'string', validate: check.validate });
  ajv.addKeyword({ keyword: 'x-pix-key', type: 'object', schemaType: 'object', errors: true, validate: pixKeyKeyword as never });
  ajv.addKeyword({ keyword: 'x-webhook-registration', type: 'object', schemaType: 'object', errors: true, validate: webhookRegistrationKeyword as never });
  ajv.addKeyword({ keyword: 'x-one-of-fields', type: 'object', schemaType: 'array', errors: true, validate: oneOfFieldsKeyword as never });
}
