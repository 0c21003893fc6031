import { centsFromDecimalString, type Cents } from '../domain/money.ts';
import { LOCALES, type Lang } from './i18n.ts';

/** `R$ 1.234,56` in both languages (decisions 6), from integer cents; never through a float. */
export function brl(cents: number | bigint): string {
  const value = BigInt(cents);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${whole},${fraction}`;
}

/** A date-time in São Paulo time, written the language's way. */
export function dateTime(value: Date | null | undefined, lang: Lang): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(LOCALES[lang], {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: 'America/Sao_Paulo',
  }).format(value);
}

/** A BRL amount typed in a form (`1.234,56`, `1234,56` or `1234.56`) as cents; undefined when it is not one. */
export function centsFromForm(raw: string): Cents | undefined {
  const text = raw.trim().replace(/^R\$\s*/, '');
  let normalized: string;
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(text) || /^\d+(,\d{1,2})?$/.test(text)) normalized = text.replaceAll('.', '').replace(',', '.');
  else if (/^\d+(\.\d{1,2})?$/.test(text)) normalized = text;
  else return undefined;
  const [whole = '0', fraction = ''] = normalized.split('.');
  // The money module turns the digits into cents (exact, no floating point).
  return centsFromDecimalString(`${whole}.${fraction.padEnd(2, '0')}`);
}
