/** A claimed job as its handler sees it (scheduler.ts runs transactional ones, steps.ts step jobs). */
export interface Job<P = Record<string, unknown>> {
  id: number;
  kind: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
}
