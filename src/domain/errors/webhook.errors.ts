import type { ErrorSpec } from './error-spec.ts';

export const webhookErrors = {} satisfies Record<string, ErrorSpec>;
