import { cents } from '../money.ts';
import type { Cents } from '../money.ts';
import type { BrCode } from './brcode.ts';
import {
  MAX_BRCODE_LENGTH,
  MAX_CITY_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TXID_LENGTH,
  PIX_GUI,
} from './brcode.ts';
import { crc16 } from './crc16.ts';
import { parseTlv, valueOf } from './tlv.ts';
import type { TlvField } from './tlv.ts';

export type { BrCode } from './brcode.ts';
export type ParseBrCodeResult = { ok: true; code: BrCode } | { ok: false; reason: string };

// EMV "ans" format: every value is printable ASCII. Also makes EMV lengths (characters) and
// CRC input (UTF-8 bytes) agree, which non-ASCII text would not.
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const CRC_TRAILER = /6304[0-9A-Fa-f]{4}$/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
// Readers in the wild write "100", "10." and "0.9"; more than 2 decimals cannot be paid exactly.
const AMOUNT = /^(\d*)(?:\.(\d*))?$/;

const fail = (reason: string): ParseBrCodeResult => ({ ok: false, reason });

function parseAmount(text: string): Cents | undefined | 'invalid' {
  const m = AMOUNT.exec(text);
  const int = m?.[1] ?? '';
  const frac = m?.[2] ?? '';
  if (!m || text.length > 13 || (int === '' && frac === '') || frac.length > 2) return 'invalid';
  const n = Number((int || '0') + frac.padEnd(2, '0'));
  // A zero amount is how some generators say "no fixed amount"; treat it as absent, not as unpayable.
  return n === 0 ? undefined : cents(n);
}

function isPixTemplate(field: TlvField | undefined): boolean {
  return valueOf(field?.children, '00')?.toLowerCase() === PIX_GUI;
}

/**
 * Parses and checks a Pix "copia e cola" string. Accepts what real banks emit (either GUI case,
 * amounts without decimals, extra arrangements and templates) but only codes that can be paid:
 * exactly one of a key or a location URL.
 */
export function parseBrCode(text: string): ParseBrCodeResult {
  if (typeof text !== 'string') return fail('The BR Code must be a string.');
  if (text.length > MAX_BRCODE_LENGTH) return fail(`The BR Code must have at most ${MAX_BRCODE_LENGTH} characters.`);
  if (!PRINTABLE_ASCII.test(text)) return fail('The BR Code must contain only printable ASCII characters.');
  if (!text.startsWith('000201')) return fail('The BR Code must start with 000201 (payload format 01).');
  if (!CRC_TRAILER.test(text)) return fail('The BR Code must end with the CRC field 63 of length 04.');
  if (crc16(text.slice(0, -4)) !== text.slice(-4).toUpperCase()) return fail('The BR Code CRC does not match.');

  const parsed = parseTlv(text);
  if (!parsed.ok) return fail(`The BR Code is malformed: ${parsed.reason}`);
  const fields = parsed.fields;
  // The trailer regex alone is fooled when "6304XXXX" sits inside the value of another field.
  if (fields.at(-1)?.id !== '63') return fail('The CRC field 63 must be the last field.');
  const get = (id: string): string | undefined => valueOf(fields, id);

  const poi = get('01');
  if (poi !== undefined && poi !== '11' && poi !== '12') return fail('Point of initiation (01) must be 11 or 12.');

  const mai = fields.find((f) => f.id === '26');
  if (!isPixTemplate(mai)) return fail('Field 26 must hold the Pix GUI br.gov.bcb.pix.');
  const key = valueOf(mai?.children, '01');
  const url = valueOf(mai?.children, '25');
  if (key !== undefined && url !== undefined) return fail('Field 26 must not hold both a key (01) and a URL (25).');
  if (key === undefined && url === undefined) {
    if (isPixTemplate(fields.find((f) => f.id === '80'))) {
      return fail('A Pix Automático-only code (recurrence in field 80, no key or URL in 26) cannot be paid here.');
    }
    return fail('Field 26 must hold a key (01) or a URL (25).');
  }
  // No upper bound needed: GUI (18) + header (4) + 77 fill the 99 characters field 26 can hold.
  if (key === '') return fail('The key (26-01) must not be empty.');
  if (url === '') return fail('The URL (26-25) must not be empty.');
  if (url !== undefined && URL_SCHEME.test(url)) return fail('The URL (26-25) must not include a scheme such as https://.');
  const fss = valueOf(mai?.children, '03');
  if (fss !== undefined && !/^\d{8}$/.test(fss)) return fail('The FSS (26-03) must be an 8-digit ISPB.');

  const mcc = get('52');
  if (mcc === undefined || !/^\d{4}$/.test(mcc)) return fail('Merchant category code (52) must be 4 digits.');
  if (get('53') !== '986') return fail('Transaction currency (53) must be 986 (BRL).');
  if (get('58') !== 'BR') return fail('Country code (58) must be BR.');
  const merchantName = get('59');
  if (merchantName === undefined || merchantName.length === 0 || merchantName.length > MAX_NAME_LENGTH) {
    return fail(`Merchant name (59) must have 1 to ${MAX_NAME_LENGTH} characters.`);
  }
  const merchantCity = get('60');
  if (merchantCity === undefined || merchantCity.length === 0 || merchantCity.length > MAX_CITY_LENGTH) {
    return fail(`Merchant city (60) must have 1 to ${MAX_CITY_LENGTH} characters.`);
  }

  let amount: Cents | undefined;
  const amountText = get('54');
  if (amountText !== undefined) {
    const parsedAmount = parseAmount(amountText);
    if (parsedAmount === 'invalid') return fail('Transaction amount (54) must be a decimal with at most 2 decimals.');
    amount = parsedAmount;
  }

  const txid = valueOf(fields.find((f) => f.id === '62')?.children, '05');
  if (txid !== undefined && (txid.length === 0 || txid.length > MAX_TXID_LENGTH)) {
    return fail(`The reference label (62-05) must have 1 to ${MAX_TXID_LENGTH} characters.`);
  }

  const additionalInfo = valueOf(mai?.children, '02');
  const code: BrCode = {
    kind: url !== undefined ? 'dynamic' : 'static',
    merchantName,
    merchantCity,
    raw: text,
  };
  if (key !== undefined) code.key = key;
  if (url !== undefined) code.url = url;
  if (additionalInfo !== undefined) code.additionalInfo = additionalInfo;
  if (amount !== undefined) code.amount = amount;
  if (txid !== undefined) code.txid = txid;
  if (poi !== undefined) code.pointOfInitiation = poi;
  if (fss !== undefined) code.fss = fss;
  return { ok: true, code };
}
