import { catalogue, type ErrorCode } from './catalogue.ts';

/**
 * The one error type services raise. Its code picks the HTTP status and the Portuguese
 * userMessage from the catalogue; each route family writes it in its own format.
 */
export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
    message?: string,
  ) {
    super(message ?? catalogue[code].message);
    this.status = catalogue[code].status;
  }
}

/** Bad input found after the schema: one text per invalid field, like schema failures. */
export class ValidationError extends Error {
  readonly status = 400;
  constructor(readonly messages: string[]) {
    super(messages.join('; '));
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
