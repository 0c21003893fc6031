import { parseScenario, refuseScenarioHeader, type Scenario } from '../../network/sandbox/scenarios.ts';

/**
 * What the simulated rest of the network does with a new charge (decisions 4.9). Outside the
 * sandbox no simulated payer exists: every charge waits for a real one, and the header is refused.
 */
export function chargeScenario(mode: 'sandbox' | 'production', header: string | undefined, operation: 'cash_in' | 'cob'): Scenario {
  if (mode === 'production') {
    refuseScenarioHeader(header);
    return { outcome: 'wait' };
  }
  return parseScenario(header, operation);
}
