import type { ErrorSpec } from './error-spec.ts';

/** The codes of POST /api/auth/token (interface spec, "Authentication"). */
export const authErrors = {} satisfies Record<string, ErrorSpec>;
