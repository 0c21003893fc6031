import { MAX_AMOUNT, MAX_AMOUNT_TEXT, toDecimalString } from '../money.ts';
import type { Cents } from '../money.ts';
import { MAX_CITY_LENGTH, MAX_KEY_OR_URL_LENGTH, MAX_NAME_LENGTH, PIX_GUI } from './brcode.ts';
import { crc16 } from './crc16.ts';
import { tlv } from './tlv.ts';

export interface DynamicBrCodeInput {
  /** Location without scheme, e.g. `host:3000/qr/v2/42` (decisions 4.2). */
  url: string;
  amount?: Cents;
  merchantName: string;
  merchantCity: string;
  /** 62-05; default `***`, since a dynamic code's real txid lives in the payload behind the URL. */
  txid?: string;
}

export interface StaticBrCodeInput {
  key: string;
  amount?: Cents;
  merchantName: string;
  merchantCity: string;
  txid?: string;
  additionalInfo?: string;
}

/** The whole 26 template is one field, so key/URL, info and GUI share 99 characters. */
const MAX_TEMPLATE = 99;
const PLACEHOLDER = 'NAO INFORMADO';
const TXID = /^(?:\*\*\*|[A-Za-z0-9]{1,25})$/;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * EMV text is printable ASCII: accents are stripped ("Bárbara Pelé" -> "Barbara Pele"; NFKD also
 * folds ligatures and full-width letters), any whitespace is a space, anything else is dropped,
 * and runs of spaces collapse so a cut does not end on one.
 */
export function toEmvText(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\s/gu, ' ')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/** Names and cities are uppercased (as pix-utils and most banks do); empty ones get a placeholder. */
function emvName(text: string, max: number): string {
  return toEmvText(text, max).toUpperCase() || PLACEHOLDER.slice(0, max);
}

function amountField(amount: Cents | undefined): string {
  if (amount === undefined) return '';
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT) {
    throw new RangeError(`A BR Code amount must be 0.01 to ${MAX_AMOUNT_TEXT}: ${amount} cents`);
  }
  return tlv('54', toDecimalString(amount));
}

function txidField(txid: string | undefined): string {
  const value = txid ?? '***';
  if (!TXID.test(value)) throw new RangeError(`62-05 must be *** or 1-25 alphanumerics: ${value}`);
  return tlv('62', tlv('05', value));
}

function assemble(head: string, template: string, amount: Cents | undefined, name: string, city: string, txid: string | undefined): string {
  const body =
    head +
    tlv('26', template) +
    tlv('52', '0000') +
    tlv('53', '986') +
    amountField(amount) +
    tlv('58', 'BR') +
    tlv('59', emvName(name, MAX_NAME_LENGTH)) +
    tlv('60', emvName(city, MAX_CITY_LENGTH)) +
    txidField(txid) +
    '6304';
  return body + crc16(body);
}

function checkKeyOrUrl(what: string, value: string): void {
  if (!PRINTABLE_ASCII.test(value) || value.length > MAX_KEY_OR_URL_LENGTH) {
    throw new RangeError(`${what} must be 1-${MAX_KEY_OR_URL_LENGTH} printable ASCII characters: ${value}`);
  }
}

/** A charge's code: single use (01=12), location URL in 26-25 (decisions 4.2). */
export function encodeDynamicBrCode(input: DynamicBrCodeInput): string {
  checkKeyOrUrl('The URL', input.url);
  if (URL_SCHEME.test(input.url)) throw new RangeError(`The URL must not include a scheme: ${input.url}`);
  const template = tlv('00', PIX_GUI) + tlv('25', input.url);
  return assemble(tlv('00', '01') + tlv('01', '12'), template, input.amount, input.merchantName, input.merchantCity, input.txid);
}

/**
 * A reusable code paying a key (no 01, like pix-utils' default). The free text in 26-02 is cut
 * to whatever room the key leaves in the 99-character template, or left out.
 */
export function encodeStaticBrCode(input: StaticBrCodeInput): string {
  checkKeyOrUrl('The key', input.key);
  let template = tlv('00', PIX_GUI) + tlv('01', input.key);
  if (input.additionalInfo !== undefined) {
    const room = MAX_TEMPLATE - template.length - 4;
    const info = room > 0 ? toEmvText(input.additionalInfo, room) : '';
    if (info) template += tlv('02', info);
  }
  return assemble(tlv('00', '01'), template, input.amount, input.merchantName, input.merchantCity, input.txid);
}
