/** Examples of one operation: its request body and its answers by status. */
export interface Examples {
  request?: unknown;
  responses?: Record<string, unknown>;
}
