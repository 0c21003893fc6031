import { Type } from '@sinclair/typebox';
import { scenarioHeaderDescription } from '../../domain/sandbox-scenarios.ts';
import { MAX_AMOUNT_BRL, MAX_AMOUNT_TEXT } from '../../domain/money.ts';

/** A BRL amount as a JSON number: at least 0.01, at most 2 decimals (checked exactly, never rounded). */
export const Amount = (options: { description?: string } = {}) =>
  Type.Number({ format: 'money', minimum: 0.01, maximum: MAX_AMOUNT_BRL, ...options });

/** A BRL amount that may be zero (fees, limits). */
export const AmountOrZero = (options: { description?: string } = {}) =>
  Type.Number({ format: 'money', minimum: 0, maximum: MAX_AMOUNT_BRL, ...options });

export const Percent = Type.Number({ format: 'money', minimum: 0, maximum: 100, description: 'percent, 10 means 10%' });

/**
 * A BRL amount in an answer: a JSON number with at most 2 decimals (format \`money\`, which the suite's
 * response check verifies); balances and differences may be zero or negative.
 */
export const Brl = (options: { description?: string } = {}) => Type.Number({ format: 'money', ...options });

export const IsoDateTime = Type.String({ format: 'date-time' });

export const ShortError = Type.Object(
  { statusCode: Type.Number(), message: Type.Union([Type.String(), Type.Array(Type.String())]), error: Type.String() },
  { $id: 'ShortError', description: 'Short error form (compatible family, admin, sandbox)' },
);

export const NumericId = Type.String({ pattern: '^[0-9]{1,15}$', description: 'numeric id' });

/**
 * The sandbox's outcome picker (decisions 4.9); production refuses it. Validated by the scenario table
 * (src/domain/sandbox-scenarios.ts), whose refusals list the allowed values; the API document shows
 * those values as an enum (src/http/openapi/document.ts).
 */
export const SandboxScenarioHeader = Type.Optional(Type.String({ description: scenarioHeaderDescription() }));

/** Headers of the routes that take `X-Sandbox-Scenario`. */
export const ScenarioHeaders = Type.Object({ 'x-sandbox-scenario': SandboxScenarioHeader });

/** A CPF (11 digits) or CNPJ (14 characters) with valid check digits, checked with the schema. */
export const Document = (options: { description?: string } = {}) =>
  Type.String({ format: 'document', maxLength: 14, description: 'CPF (11 digits) or CNPJ (14 characters), digits only', ...options });

/** A compatible-family amount: a string with two decimals, 0.01 to 999999999.99 ("123.45"). */
export const DecimalAmount = (options: { description?: string } = {}) =>
  Type.String({ format: 'decimal-amount', maxLength: 13, description: `BRL with exactly two decimals, 0.01 to ${MAX_AMOUNT_TEXT}`, ...options });

/** The 8-digit ISPB of a PIX participant the sandbox knows. */
export const ParticipantIspb = () => Type.String({ format: 'pix-participant', maxLength: 8, description: '8-digit ISPB of a known PIX participant' });
