/**
 * CPF and CNPJ check digits (decisions 3: validated wherever a document is accepted). Only the
 * bare form is valid ("52998224725", "12ABC34501DE35"): the API says digits only, and accepting
 * punctuation here would let two spellings of one document through uniqueness checks.
 */

const CPF = /^\d{11}$/;
// The alphanumeric CNPJ (IN RFB 2.229/2024): 12 chars of [0-9A-Z], then 2 numeric check digits.
const CNPJ = /^[0-9A-Z]{12}\d{2}$/;

/** Mod-11 check digit over char values charCode - 48 (so '0'-'9' are 0-9 and 'A' is 17). */
function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * (weights[i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** "00000000000", "11111111111"... pass the arithmetic but are not issued. */
function allSame(s: string): boolean {
  return s.split('').every((c) => c === s[0]);
}

const CPF_W1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_W2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCpf(s: string): boolean {
  if (typeof s !== 'string' || !CPF.test(s) || allSame(s)) return false;
  return checkDigit(s, CPF_W1) === Number(s[9]) && checkDigit(s, CPF_W2) === Number(s[10]);
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCnpj(s: string): boolean {
  if (typeof s !== 'string' || !CNPJ.test(s) || allSame(s)) return false;
  return checkDigit(s, CNPJ_W1) === Number(s[12]) && checkDigit(s, CNPJ_W2) === Number(s[13]);
}

export type { DocumentType } from './closed-lists.ts';
import type { DocumentType } from './closed-lists.ts';

export function documentType(s: string): DocumentType | undefined {
  if (isValidCpf(s)) return 'CPF';
  if (isValidCnpj(s)) return 'CNPJ';
  return undefined;
}

const MASKED_CPF = /^\*\*\*\.\d{3}\.\d{3}-\*\*$/;
const MASKED_CNPJ = /^\*\*\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\*\*$/;

/**
 * CPF `***.456.789-**`, CNPJ `**.345.678/0001-**` (decisions 3). Masks by shape, not validity:
 * counterpart documents from other banks are shown even when their check digits are off.
 * Formatted input is accepted, already-masked input is returned as is, and anything else becomes
 * `***`, so whatever comes in, the raw value never goes out.
 */
export function maskDocument(s: string): string {
  if (typeof s !== 'string') return '***';
  if (MASKED_CPF.test(s) || MASKED_CNPJ.test(s)) return s;
  const bare = s.replace(/[.\-/\s]/g, '').toUpperCase();
  if (CPF.test(bare)) return `***.${bare.slice(3, 6)}.${bare.slice(6, 9)}-**`;
  if (CNPJ.test(bare)) {
    return `**.${bare.slice(2, 5)}.${bare.slice(5, 8)}/${bare.slice(8, 12)}-**`;
  }
  return '***';
}
