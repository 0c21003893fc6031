import { DomainError, ValidationError } from '../domain/errors/domain-error.ts';
import { toProblem, type Problem } from '../http/errors/problem.ts';
import type { Lang } from './i18n.ts';

/** The error catalogue's `userMessage` is written in Portuguese. */
const ERROR_CATALOGUE_LANG: Lang = 'pt-BR';

/**
 * The message to show next to a form when a service refused its input (4xx); anything else is
 * rethrown and answered by the portal's error page.
 */
export function refusal(error: unknown, lang: Lang): { status: number; message: string; retryAfter?: number } {
  if (!(error instanceof DomainError) && !(error instanceof ValidationError)) throw error;
  const problem = toProblem(error);
  if (problem.status >= 500) throw error;
  const message = refusalText(problem, lang);
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

/**
 * A refusal in the page's language: in Portuguese the catalogue's message for people (userMessage);
 * a field check keeps its own text, which names the field (the catalogue's is only "invalid data").
 */
export function refusalText(problem: Problem, lang: Lang): string {
  if (lang === ERROR_CATALOGUE_LANG && problem.catalogueCode !== 'VALIDATION_FAILED') return problem.userMessage;
  return Array.isArray(problem.message) ? problem.message.join('; ') : problem.message;
}
