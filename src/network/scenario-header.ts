import { parseScenario, refuseScenarioHeader, type ScenarioOperation } from '../domain/sandbox-scenarios.ts';

/**
 * Reads `X-Sandbox-Scenario` into the value stored with the operation. The sandbox validates it
 * (and `error:provider-unavailable` fails the request at once); production refuses the header.
 * Chosen once at wiring time, so services never look at the configured mode.
 */
export type ScenarioReader = (header: string | undefined, operation: ScenarioOperation) => string | null;

export const sandboxScenarioReader: ScenarioReader = (header, operation) => {
  parseScenario(header, operation);
  const value = header?.trim();
  return value ? value : null;
};

export const productionScenarioReader: ScenarioReader = (header) => {
  refuseScenarioHeader(header);
  return null;
};
