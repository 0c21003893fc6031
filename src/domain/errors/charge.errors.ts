import type { ErrorSpec } from './error-spec.ts';

export const chargeErrors = {} satisfies Record<string, ErrorSpec>;
