/** One due job as its handler sees it (src/jobs/scheduler.ts runs it; steps.ts runs it as a step). */
export interface Job<P = Record<string, unknown>> {
  id: number;
  kind: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
}
