import { RequestPart, RequestState, type SimRequest } from '@blis/engine';
import type { RequestTable } from '@blis/engine/internal';

/**
 * How a request's stay ended, as its per-request record says (`outcome`). Every injected request
 * has exactly one: `completed`; left early as `dropped_unservable` (can never fit), `timed_out`,
 * `rejected` (admission or a router), `shed` (turned away or displaced by the flow-control gateway),
 * `expired` (its gateway TTL passed), `evicted` (flow control's in-flight eviction), `drained` (its
 * replica went away);
 * or, when the run ended first, `still_queued` / `still_running`.
 */
export type RequestOutcome = 'completed' | 'dropped_unservable' | 'timed_out' | 'rejected' | 'shed' | 'expired' | 'evicted' | 'drained' | 'still_queued' | 'still_running';

/** A request that left without completing: the request the user sent, why, and when. */
export interface LeftRequest {
  readonly req: SimRequest;
  readonly outcome: Exclude<RequestOutcome, 'completed' | 'still_queued' | 'still_running'>;
  readonly atUs: number;
}

/**
 * The requests still in the system when the run ended, each once as the user sent it: a whole
 * request from the table, a disaggregated one through its parent (its parts share its index);
 * `running` when it (or its live part) is in a batch.
 */
export function forEachLiveRequest(
  table: RequestTable,
  liveParents: ((fn: (parent: SimRequest) => void) => void) | undefined,
  fn: (req: SimRequest, running: boolean) => void,
): void {
  const partRunning = new Map<number, boolean>();
  table.forEach((r) => {
    if (r.part === RequestPart.Whole) fn(r, r.state === RequestState.Running);
    else partRunning.set(r.spec.index, (partRunning.get(r.spec.index) ?? false) || r.state === RequestState.Running);
  });
  liveParents?.((p) => fn(p, partRunning.get(p.spec.index) ?? false));
}
