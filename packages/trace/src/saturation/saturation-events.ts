import type { SaturationEvent } from '@blis/policies';

/** What the replay needs of a completed request: its id, arrival and end-to-end latency, in µs. */
export interface CompletedRequestTimes {
  requestId: string;
  arrivalUs: number;
  e2eUs: number;
}

/**
 * The replay's events, in BLIS's order: each completed request arrives, and completes its E2E
 * later; sorted by time, arrivals before completions at one time, then by request id (byte order).
 * Times make BLIS's round trip through its per-request record (arrival in seconds, E2E in ms,
 * each truncated back to whole µs), so an event lands on the µs BLIS puts it on. A request with
 * no positive E2E is not counted as completed, as in BLIS.
 */
export function saturationEvents(requests: Iterable<CompletedRequestTimes>): SaturationEvent[] {
  const events: SaturationEvent[] = [];
  for (const r of requests) {
    if (!(r.e2eUs > 0)) continue;
    const arrival = Math.trunc((r.arrivalUs / 1e6) * 1e6);
    const latencyMs = r.e2eUs / 1e3;
    events.push({ timestampUs: arrival, kind: 'arrival', requestId: r.requestId, latencyMs: 0 });
    events.push({ timestampUs: arrival + Math.trunc(latencyMs * 1e3), kind: 'completion', requestId: r.requestId, latencyMs });
  }
  return events.sort(compareEvents);
}

function compareEvents(a: SaturationEvent, b: SaturationEvent): number {
  if (a.timestampUs !== b.timestampUs) return a.timestampUs - b.timestampUs;
  if (a.kind !== b.kind) return a.kind === 'arrival' ? -1 : 1;
  return a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0;
}
