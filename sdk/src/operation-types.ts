import type { operations } from './openapi.ts';

/** The JSON body an operation of the OpenAPI document takes. */
export type BodyOf<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The JSON an operation answers on success (its 200, 201 or 202). */
export type AnswerOf<Op extends keyof operations> = operations[Op] extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;

/** The query parameters an operation takes. */
export type QueryOf<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Per-call options of a resource method. */
export interface RequestOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
}

/** Options of the calls that move money in the sandbox: `scenario` is the X-Sandbox-Scenario header (`pending`, `error:insufficient-funds`, ...). */
export interface SandboxableOptions extends RequestOptions {
  scenario?: string;
}
