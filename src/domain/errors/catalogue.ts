import { authErrors } from './auth.errors.ts';
import { chargeErrors } from './charge.errors.ts';
import { coreErrors } from './core.errors.ts';
import { pixErrors } from './pix.errors.ts';
import type { ErrorSpec } from './error-spec.ts';
import { refundErrors } from './refund.errors.ts';
import { webhookErrors } from './webhook.errors.ts';

/** Every error the service can answer, by code. One place, so codes never drift between routes. */
export const catalogue = {
  ...coreErrors,
  ...authErrors,
  ...pixErrors,
  ...webhookErrors,
  ...chargeErrors,
  ...refundErrors,
} satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof catalogue;
export type { ErrorSpec };
