import { describe, expect, it } from 'vitest';
import { DomainError, ValidationError } from './errors/domain-error.ts';
import {
  DELAYED_SCENARIO_PATTERN,
  MAX_SCENARIO_DELAY_S,
  parseScenario,
  PROVIDER_UNAVAILABLE_SCENARIO,
  refuseScenarioHeader,
  SCENARIO_REJECTIONS,
  SCENARIO_VALUES,
  type ScenarioOperation,
} from './sandbox-scenarios.ts';

const OPERATIONS: ScenarioOperation[] = ['cash_in', 'cob', 'cash_out', 'cash_out_qrcode', 'refund_in'];
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('X-Sandbox-Scenario (decisions 4.9)', () => {
  it('no header: a cob waits for its payer, everything else settles at once', () => {
    for (const operation of OPERATIONS) {
      for (const header of [undefined, '', '  ']) {
        expect(parseScenario(header, operation)).toEqual(operation === 'cob' ? { outcome: 'wait' } : { outcome: 'settle', extraDelaySeconds: 0 });
      }
    }
  });

  it('every error:* value ends ERROR with its own code and Portuguese text, on every operation', () => {
    const codes = new Set<string>();
    for (const [value, rejection] of Object.entries(SCENARIO_REJECTIONS)) {
      codes.add(rejection.errorCode);
      for (const operation of OPERATIONS) expect(parseScenario(` ${value} `, operation)).toEqual({ outcome: 'reject', ...rejection });
    }
    expect(codes.size).toBe(Object.keys(SCENARIO_REJECTIONS).length);
  });

  it('pending is for charges only (cash-in and cob); elsewhere it is refused like an unknown value', () => {
    expect(parseScenario('pending', 'cash_in')).toEqual({ outcome: 'wait' });
    expect(parseScenario('pending', 'cob')).toEqual({ outcome: 'wait' });
    for (const operation of ['cash_out', 'cash_out_qrcode', 'refund_in'] as const) expect(refusal(() => parseScenario('pending', operation))).toBeInstanceOf(ValidationError);
  });

  it('delayed:Ns matches its documented pattern and is capped', () => {
    const pattern = new RegExp(DELAYED_SCENARIO_PATTERN);
    const cases: Array<[string, number | undefined]> = [
      ['delayed:0s', 0],
      ['delayed:7s', 7],
      [`delayed:${MAX_SCENARIO_DELAY_S + 1}s`, MAX_SCENARIO_DELAY_S],
      ['delayed:999999s', MAX_SCENARIO_DELAY_S],
      ['delayed:1234567s', undefined],
      ['delayed:-1s', undefined],
      ['delayed:1.5s', undefined],
      ['delayed:5', undefined],
    ];
    for (const [value, seconds] of cases) {
      expect(pattern.test(value), value).toBe(seconds !== undefined);
      if (seconds === undefined) expect(refusal(() => parseScenario(value, 'cash_out')), value).toBeInstanceOf(ValidationError);
      else expect(parseScenario(value, 'cash_out'), value).toEqual({ outcome: 'settle', extraDelaySeconds: seconds });
    }
  });

  it('error:provider-unavailable fails the request at once with PROVIDER_UNAVAILABLE', () => {
    const error = refusal(() => parseScenario(PROVIDER_UNAVAILABLE_SCENARIO, 'cash_out'));
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('an unknown value, inherited object names included, is refused listing every allowed value', () => {
    for (const value of ['error:bogus', 'SUCCESS', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const error = refusal(() => parseScenario(value, 'cash_out'));
      expect(error, value).toBeInstanceOf(ValidationError);
      const message = (error as ValidationError).messages.join('\n');
      for (const allowed of SCENARIO_VALUES.filter((v) => v !== 'pending')) expect(message, value).toContain(allowed);
    }
  });

  it('production refuses the header whatever its value, and only when it is sent', () => {
    expect(() => refuseScenarioHeader(undefined)).not.toThrow();
    for (const value of ['', 'success', 'error:bogus']) expect(refusal(() => refuseScenarioHeader(value)), value).toBeInstanceOf(ValidationError);
  });
});
