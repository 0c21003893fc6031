import { afterAll, beforeAll } from 'vitest';
import { startHarness, type Harness, type HarnessOptions } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

/**
 * A suite's service and a real webhook receiver: started before its tests, closed after them. Read
 * `suite.h` and `suite.rx` inside tests (they exist once beforeAll ran).
 */
export function harnessAndReceiver(options?: HarnessOptions): { readonly h: Harness; readonly rx: Receiver } {
  const suite = {} as { h: Harness; rx: Receiver };
  beforeAll(async () => {
    suite.h = await startHarness(options);
    suite.rx = await startReceiver();
  });
  afterAll(async () => {
    await suite.rx?.close();
    await suite.h?.close();
  });
  return suite;
}
