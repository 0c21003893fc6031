import { Type, type Static } from '@sinclair/typebox';
import { percentFromBasisPoints, toBrlNumber, type Cents } from '../../../domain/money.ts';
import type { AccountRow } from '../../../db/repos/accounts.repo.ts';
import { Brl } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../../../domain/closed-lists.ts';

const brl = (c: Cents) => toBrlNumber(c);
const percent = percentFromBasisPoints;

export const Limits = Type.Object({ perTransaction: Brl(), daily: Brl(), nightly: Brl() });
const Fee = Type.Object({ fixed: Brl(), percent: Type.Number({ format: 'money', description: 'percent, 10 means 10%' }) });
export const Fees = Type.Object({ cashIn: Fee, cashOut: Fee });

export const AccountCreated = Type.Object({
  id: Type.Number(),
  name: Type.String(),
  document: Type.String({ format: 'document' }),
  type: OneOf(ACCOUNT_TYPES),
  pixKey: Type.String({ format: 'dict-key' }),
  status: OneOf(ACCOUNT_STATUSES, { description: 'SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const AccountDetails = Type.Composite([
  AccountCreated,
  Type.Object({
    balance: Type.Object({ available: Brl(), blocked: Brl() }),
    limits: Limits,
    fees: Fees,
    splitFrequency: Type.String(),
  }),
]);

/** An account as operators' lists show it: what it is and its balance. */
export const AccountSummary = Type.Composite([AccountCreated, Type.Object({ balance: Type.Object({ available: Brl(), blocked: Brl() }) })]);

export const accountSummaryView = (a: AccountRow): Static<typeof AccountSummary> => ({
  ...accountCreatedView(a),
  balance: { available: brl(a.available), blocked: brl(a.blocked) },
});

export const limitsView = (a: AccountRow): Static<typeof Limits> => ({
  perTransaction: brl(a.limit_per_transaction),
  daily: brl(a.limit_daily),
  nightly: brl(a.limit_nightly),
});

export const feesView = (a: AccountRow): Static<typeof Fees> => ({
  cashIn: { fixed: brl(a.fee_cash_in_fixed), percent: percent(a.fee_cash_in_percent_bp) },
  cashOut: { fixed: brl(a.fee_cash_out_fixed), percent: percent(a.fee_cash_out_percent_bp) },
});

export const accountCreatedView = (a: AccountRow): Static<typeof AccountCreated> => ({
  id: a.id,
  name: a.name,
  document: a.document,
  type: a.type,
  pixKey: a.pix_key,
  status: a.status,
  createdAt: a.created_at.toISOString(),
});

export const accountDetailsView = (a: AccountRow): Static<typeof AccountDetails> => ({
  ...accountCreatedView(a),
  balance: { available: brl(a.available), blocked: brl(a.blocked) },
  limits: limitsView(a),
  fees: feesView(a),
  splitFrequency: a.split_frequency,
});
