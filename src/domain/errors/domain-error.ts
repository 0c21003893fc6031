import { catalogue, type ErrorCode } from './catalogue.ts';

/**
 * Expected outcomes (a refusal: 401, 404, 409, ...) are answers, not bugs: their errors are built
 * without capturing a stack, which was a large part of what a refused request cost (issue 12).
 * `stack` still reads "Name: message". Called around `super()`; restores the limit right after.
 */
const noStack = { limit: Error.stackTraceLimit };
function stopStackCapture(): void {
  noStack.limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
}
function resumeStackCapture(): void {
  Error.stackTraceLimit = noStack.limit;
}

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
    stopStackCapture();
    super(message ?? catalogue[code].message);
    resumeStackCapture();
    this.status = catalogue[code].status;
  }
}

/** Bad input found after the schema: one text per invalid field, like schema failures. */
export class ValidationError extends Error {
  readonly status = 400;
  constructor(readonly messages: string[]) {
    stopStackCapture();
    super(messages.join('; '));
    resumeStackCapture();
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
