import { parseScenario, refuseScenarioHeader } from '../../network/sandbox/scenarios.ts';

/**
 * Checks `X-Sandbox-Scenario` on a refund when it is asked (decisions 4.9): an unknown value answers
 * 400, `error:provider-unavailable` 500 before anything is stored, and production refuses the header.
 * Answers the value the settlement job will read from the transaction row.
 */
export function refundScenario(mode: 'sandbox' | 'production', header: string | undefined): string | null {
  if (mode === 'production') {
    refuseScenarioHeader(header);
    return null;
  }
  parseScenario(header, 'refund_in');
  const value = header?.trim();
  return value ? value : null;
}
