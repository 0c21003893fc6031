import { DomainError, ValidationError } from '../domain/errors/domain-error.ts';
import { toProblem, type Problem } from '../http/errors/problem.ts';
import { translator, type Lang, type MessageKey } from './i18n.ts';

/** The error catalogue's `userMessage` is written in Portuguese. */
const ERROR_CATALOGUE_LANG: Lang = 'pt-BR';

/**
 * The message to show next to a form when a service refused its input (4xx); anything else is
 * rethrown and answered by the portal's error page.
 */
export function refusal(error: unknown, lang: Lang, field?: MessageKey): { status: number; message: string; retryAfter?: number } {
  if (!(error instanceof DomainError) && !(error instanceof ValidationError)) throw error;
  const problem = toProblem(error);
  if (problem.status >= 500) throw error;
  const message = refusalText(problem, lang, field);
  const retryAfter = error instanceof DomainError ? (error.details?.retryAfterSeconds as number | undefined) : undefined;
  return { status: problem.status, message, ...(retryAfter ? { retryAfter } : {}) };
}

/** A form field as a string (urlencoded bodies give strings; anything else counts as absent). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** An uploaded file's text (multipart forms); '' when no file, or an empty one, was chosen. */
export function uploadedText(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return Buffer.isBuffer(value) ? value.toString('utf8') : '';
}

/** The label of a field the API's field checks name (`amount must be...`, `body/startDate ...`). */
const FIELD_LABELS: Record<string, MessageKey> = {
  key: 'pixKey',
  pixKey: 'pixKey',
  keyType: 'keyType',
  amount: 'amount',
  value: 'amount',
  refundValue: 'refundAmount',
  description: 'description',
  reason: 'reason',
  email: 'email',
  password: 'password',
  code: 'authCode',
  startDate: 'from',
  endDate: 'to',
  url: 'fieldUrl',
  name: 'fieldName',
  document: 'fieldDocument',
  headers: 'fieldHeaders',
  pem: 'fieldCertificate',
  csr: 'fieldCertificate',
  certificate: 'fieldCertificate',
};

/** The first field a check's messages name, as a page label. */
function namedField(messages: string[]): MessageKey | undefined {
  for (const text of messages) {
    for (const word of text.split(/[\s,:;'"`()]+/)) {
      const label = FIELD_LABELS[word.replace(/^(body|query|params)[/.]/, '').replace(/^\//, '')];
      if (label) return label;
    }
  }
  return undefined;
}

/**
 * A refusal in the page's language. The catalogue speaks Portuguese to people (userMessage) and
 * English to developers (message): an English page shows the service's own words, a Portuguese one
 * the catalogue's; a field check, whose catalogue text is only "invalid data", is said by the portal
 * naming the field (the one the check names, else the form's `field`). The API's English never
 * reaches a Portuguese page.
 */
export function refusalText(problem: Problem, lang: Lang, field?: MessageKey): string {
  const messages = Array.isArray(problem.message) ? problem.message : [problem.message];
  if (lang !== ERROR_CATALOGUE_LANG) return messages.join('; ');
  if (problem.catalogueCode !== 'VALIDATION_FAILED') return problem.userMessage;
  const t = translator(lang);
  const label = namedField(messages) ?? field;
  return label ? t('fieldRefused', { field: t(label) }) : t('formRefused');
}
