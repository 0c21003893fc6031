import { afterEach } from 'vitest';
import { takeResponseViolations } from '../../src/http/openapi/response-check.ts';

// Every answer a test provoked must be one its route's OpenAPI document declares (status and body):
// the harness's app records the ones that are not, and the test that caused them fails here.
afterEach(() => {
  const violations = takeResponseViolations();
  if (violations.length > 0) throw new Error(`Responses the OpenAPI document does not declare:\n${violations.join('\n')}`);
});
