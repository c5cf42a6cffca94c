import type { SimulationResult } from '@blis/cluster';

/**
 * p99 wait before a request's first step beyond which a run counts as overloaded. A served
 * request waits a step or two (tens of ms); a second at p99 means a queue that grew for much of
 * the run, so the latencies describe the backlog more than the server.
 */
export const OVERLOAD_SCHEDULING_DELAY_P99_MS = 1000;

/** A stderr note when the run was overloaded (see the threshold above), or undefined. */
export function overloadNote(r: Pick<SimulationResult, 'scheduling_delay_p99_ms' | 'ttft_mean_ms' | 'completed_requests'>, numInstances: number): string | undefined {
  if (r.completed_requests === 0 || !(r.scheduling_delay_p99_ms > OVERLOAD_SCHEDULING_DELAY_P99_MS)) return undefined;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `note: overloaded: requests waited up to ${s(r.scheduling_delay_p99_ms)} (p99) for their first step, mean TTFT ${s(r.ttft_mean_ms)}; ` +
    `the ${numInstances === 1 ? 'instance' : `${numInstances} instances`} could not keep up with the arrivals (more --num-instances, or less load)`
  );
}
