import type { ErrorSpec } from './error-spec.ts';

export const refundErrors = {} satisfies Record<string, ErrorSpec>;
