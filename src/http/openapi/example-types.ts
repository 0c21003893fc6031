/** An operation's examples in the OpenAPI document: its request body and its responses by status. */
export interface Examples {
  request?: unknown;
  responses?: Record<string, unknown>;
}
