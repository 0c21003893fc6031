import { DomainError, ValidationError } from './errors/domain-error.ts';

/**
 * `X-Sandbox-Scenario` (decisions 4.9): the header's closed list of values, what each asks of the
 * simulated network, and the rules for reading or refusing it. Clients send these values and read
 * these error codes, so this is the sandbox's public interface, not the simulator's behaviour; it is
 * written here once. The API document's enum and description (src/http), the header readers chosen at
 * wiring time (src/network/scenario-header.ts) and the simulator, which carries the outcome out
 * (src/network/sandbox/sandbox-network.ts), all read it from here.
 */

/** Operations that take the header. */
export type ScenarioOperation = 'cash_in' | 'cob' | 'cash_out' | 'cash_out_qrcode' | 'refund_in';

/** What the simulated network will do with one operation. */
export type Scenario =
  | { outcome: 'settle'; extraDelaySeconds: number }
  | { outcome: 'reject'; errorCode: string; errorMessage: string }
  /** Cash-in only: the charge waits for a payer (`/sandbox/charges/{id}/pay`) or its expiry. */
  | { outcome: 'wait' };

/** `delayed:Ns` above this many seconds counts as this many. */
export const MAX_SCENARIO_DELAY_S = 120;

/** The values that end the operation ERROR: header value -> asynchronous error code and its Portuguese text. */
export const SCENARIO_REJECTIONS = {
  'error:insufficient-funds': { errorCode: 'INSUFFICIENT_FUNDS', errorMessage: 'Saldo insuficiente na instituição de origem.' },
  'error:invalid-pix-key': { errorCode: 'INVALID_PIX_KEY', errorMessage: 'Chave PIX inválida ou inexistente.' },
  'error:document-mismatch': { errorCode: 'TAX_ID_MISMATCH', errorMessage: 'O documento informado não corresponde ao titular da chave.' },
  'error:account-blocked': { errorCode: 'BLOCKED_ACCOUNT', errorMessage: 'A conta de destino está bloqueada judicialmente.' },
  'error:duplicate-id': { errorCode: 'DUPLICATE_ID', errorMessage: 'Identificador da operação duplicado no provedor.' },
  'error:invalid-tax-id': { errorCode: 'INVALID_TAX_ID', errorMessage: 'CPF/CNPJ inválido.' },
  'error:account-closed': { errorCode: 'ACCOUNT_CLOSED', errorMessage: 'A conta de destino está encerrada.' },
  'error:order-rejected': { errorCode: 'ORDER_REJECTED', errorMessage: 'A instituição de destino rejeitou a operação.' },
  'error:payment-expired': { errorCode: 'PAYMENT_EXPIRED', errorMessage: 'O pagamento expirou antes de ser processado.' },
  'error:settlement-timeout': { errorCode: 'SETTLEMENT_TIMEOUT', errorMessage: 'A instituição de destino não respondeu a tempo.' },
} as const satisfies Record<`error:${string}`, { errorCode: string; errorMessage: string }>;
export type RejectionScenario = keyof typeof SCENARIO_REJECTIONS;

/** Own keys only: `constructor` or `toString` is not a scenario. */
const isRejection = (value: string): value is RejectionScenario => Object.hasOwn(SCENARIO_REJECTIONS, value);
const REJECTION_VALUES = Object.keys(SCENARIO_REJECTIONS) as RejectionScenario[];

/** The value that fails the request at once (500, nothing stored, no money held). */
export const PROVIDER_UNAVAILABLE_SCENARIO = 'error:provider-unavailable';

/** The header's fixed values (the API document's enum); `delayed:Ns` is the one pattern beside them. */
export const SCENARIO_VALUES = ['success', 'pending', ...REJECTION_VALUES, PROVIDER_UNAVAILABLE_SCENARIO] as const;
export const DELAYED_SCENARIO_PATTERN = '^delayed:[0-9]{1,6}s$';

/** What a refusal of an unknown value lists. */
const ALLOWED = ['success', 'delayed:<N>s', 'pending (cash-in and cob only)', ...REJECTION_VALUES, PROVIDER_UNAVAILABLE_SCENARIO];

/** What the header does, for the API document (Markdown: values in code spans, nothing a renderer takes for HTML). */
export function scenarioHeaderDescription(): string {
  const errors = Object.entries(SCENARIO_REJECTIONS).map(([value, r]) => `\`${value}\` (${r.errorCode})`);
  return [
    'Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change.',
    '`success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer).',
    `\`delayed:Ns\` (pattern ${DELAYED_SCENARIO_PATTERN}): the same, N seconds later (at most ${MAX_SCENARIO_DELAY_S}).`,
    '`pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry.',
    `Ends ERROR with this errorCode: ${errors.join(', ')}.`,
    `\`${PROVIDER_UNAVAILABLE_SCENARIO}\`: answers 500 at once; nothing is stored and no money is held.`,
  ].join(' ');
}

/**
 * Reads the header (sandbox only). `error:provider-unavailable` throws at once: the request answers
 * 500 and nothing is stored. Unknown values answer 400 listing the allowed ones.
 */
export function parseScenario(header: string | undefined, operation: ScenarioOperation): Scenario {
  const value = header?.trim();
  if (value === undefined || value === '') {
    // A cob without the header waits for its payer; everything else settles.
    return operation === 'cob' ? { outcome: 'wait' } : { outcome: 'settle', extraDelaySeconds: 0 };
  }
  if (value === 'success') return { outcome: 'settle', extraDelaySeconds: 0 };
  const delayed = /^delayed:(\d{1,6})s$/.exec(value);
  if (delayed) return { outcome: 'settle', extraDelaySeconds: Math.min(Number(delayed[1]), MAX_SCENARIO_DELAY_S) };
  if (value === 'pending' && (operation === 'cash_in' || operation === 'cob')) return { outcome: 'wait' };
  if (isRejection(value)) return { outcome: 'reject', ...SCENARIO_REJECTIONS[value] };
  if (value === PROVIDER_UNAVAILABLE_SCENARIO) {
    throw new DomainError('PROVIDER_UNAVAILABLE', { provider: 'sandbox', scenario: value });
  }
  throw new ValidationError([`X-Sandbox-Scenario must be one of: ${ALLOWED.join(', ')}`]);
}

/** Production: the header is refused outright. */
export function refuseScenarioHeader(header: string | undefined): void {
  if (header !== undefined) throw new ValidationError(['X-Sandbox-Scenario header is only supported in sandbox mode']);
}
