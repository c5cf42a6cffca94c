import { MAX_WINDOW_REQUESTS } from './request-limits.js';
import { plannedWindow } from './window-rate.js';
import { type WorkloadSpec, hasWindowOverrides } from './spec-schema.js';

/**
 * Refuses lifecycle windows that would have the per-window generator (BLIS's, which a spec with
 * any window override uses) draw more than {@link MAX_WINDOW_REQUESTS} arrivals: it draws every
 * gap of a window before the window's first arrival, to rescale them to fill it, so a window of
 * `trace_rate: 1e20` over 300 s hung before the first request (found by the spec fuzz test).
 * `horizon` is the spec's, which cuts windows in the generator; the issue names the window that
 * passes the limit.
 */
export function windowRequestIssues(spec: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>, horizon = Number.POSITIVE_INFINITY): { path: (string | number)[]; expected: string; found: string }[] {
  if (!spec.clients.some((c) => c.lifecycle?.windows.some(hasWindowOverrides) === true)) return [];
  let total = 0;
  for (const [ci, c] of spec.clients.entries()) {
    for (const [wi, w] of (c.lifecycle?.windows ?? []).entries()) {
      total += plannedWindow(spec, c, w, horizon)?.count ?? 0;
      if (total > MAX_WINDOW_REQUESTS)
        return [
          {
            path: ['clients', ci, 'lifecycle', 'windows', wi, w.trace_rate !== undefined ? 'trace_rate' : 'end_us'],
            expected: `lifecycle windows of at most ${MAX_WINDOW_REQUESTS} requests in all (rate × duration; the generator draws every gap of a window before its first request)`,
            found: `${total.toPrecision(3)} requests up to this window`,
          },
        ];
    }
  }
  return [];
}

/**
 * Whether the spec ends: a request budget, a horizon (its own or the run's `--horizon`), or every
 * sending client inside lifecycle windows, which all close (BLIS's step-up/step-down autoscaling
 * example is one). Checked where the run's horizon is known. A spec bounded by nothing is refused
 * at `num_requests`, naming a client that sends without windows; one bounded by its windows alone
 * sends for as long as they stay open, and is refused when that plans more than
 * {@link MAX_WINDOW_REQUESTS} requests (each client's rate × the time its windows are open), at
 * the window that passes the limit (the per-window generator's count is
 * {@link windowRequestIssues}').
 */
export function unboundedSpecIssues(
  spec: Pick<WorkloadSpec, 'aggregate_rate' | 'clients' | 'num_requests' | 'horizon'>,
  runHorizonUs: number | undefined,
): { path: (string | number)[]; expected: string; found: string }[] {
  if (spec.num_requests !== undefined || spec.horizon !== undefined || runHorizonUs !== undefined) return [];
  // Concurrency users run until a budget or a horizon stops them, windows or not.
  const open = spec.clients.findIndex((c) => ((spec.aggregate_rate === 0 || c.rate_fraction > 0) && c.lifecycle === undefined) || (c.concurrency ?? 0) > 0);
  if (open >= 0)
    return [
      {
        path: ['num_requests'],
        expected: 'num_requests or horizon, a run --num-requests or --horizon, or lifecycle windows on every sending client (an unbounded workload never ends)',
        found: `none; client "${spec.clients[open].id}" ${(spec.clients[open].concurrency ?? 0) > 0 ? 'has closed-loop users' : 'sends without windows'}`,
      },
    ];
  if (spec.clients.some((c) => c.lifecycle?.windows.some(hasWindowOverrides) === true)) return [];
  const totalFraction = spec.clients.reduce((a, c) => a + c.rate_fraction, 0);
  let total = 0;
  for (const [ci, c] of spec.clients.entries()) {
    const rate = totalFraction > 0 ? spec.aggregate_rate * (c.rate_fraction / totalFraction) : 0;
    for (const [wi, w] of (c.lifecycle?.windows ?? []).entries()) {
      total += rate * ((w.end_us - w.start_us) / 1e6);
      if (total > MAX_WINDOW_REQUESTS)
        return [
          {
            path: ['clients', ci, 'lifecycle', 'windows', wi, 'end_us'],
            expected: `lifecycle windows of at most ${MAX_WINDOW_REQUESTS} requests in all when nothing else bounds the workload (rate × open time; or give num_requests or horizon)`,
            found: `${total.toPrecision(3)} requests up to this window`,
          },
        ];
    }
  }
  return [];
}
