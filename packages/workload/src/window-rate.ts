import type { ClientSpec, WindowSpec, WorkloadSpec } from './spec-schema.js';

/**
 * A window's rate in requests/s, BLIS's computeProportionalRate (generator.go): with
 * `aggregate_rate: 0` its `trace_rate` as is; otherwise `aggregate_rate × own / Σ`, where `own`
 * is the window's `trace_rate` (or its client's `rate_fraction`) and the sum takes, for every
 * client, the rate of its first window overlapping [start, end) (the client's `rate_fraction`
 * for a client without windows). 0 when nothing overlaps.
 */
export function windowRate(spec: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>, client: ClientSpec, w: WindowSpec, start: number, end: number): number {
  const own = w.trace_rate ?? client.rate_fraction;
  if (spec.aggregate_rate === 0 && w.trace_rate !== undefined) return own;
  const total = coActiveTotal(spec.clients, start, end);
  return total === 0 ? 0 : spec.aggregate_rate * (own / total);
}

/** Per clients array, the co-active totals by span: cohort members share windows, so spans repeat. */
const totals = new WeakMap<readonly ClientSpec[], Map<string, number>>();

function coActiveTotal(clients: readonly ClientSpec[], start: number, end: number): number {
  let memo = totals.get(clients);
  if (memo === undefined) totals.set(clients, (memo = new Map()));
  const key = `${start}:${end}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let total = 0;
  for (const o of clients) {
    if (o.lifecycle === undefined) {
      total += o.rate_fraction;
      continue;
    }
    const hit = o.lifecycle.windows.find((x) => x.start_us < end && start < x.end_us);
    if (hit !== undefined) total += hit.trace_rate ?? o.rate_fraction;
  }
  memo.set(key, total);
  return total;
}

/**
 * What the per-window generator draws for a window: its end (cut at `horizon`), its rate and its
 * request count, `ceil(rate × duration)` gaps (BLIS's generateRequestsForWindow); undefined for a
 * window it skips (opening at or after the horizon, rate 0, no request). The window limit counts
 * with this too, so it counts what the generator would draw.
 */
export function plannedWindow(
  spec: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>,
  client: ClientSpec,
  w: WindowSpec,
  horizon: number,
): { end: number; rate: number; count: number } | undefined {
  if (w.start_us >= horizon) return undefined;
  const end = Math.min(w.end_us, horizon);
  const rate = windowRate(spec, client, w, w.start_us, end);
  if (!(rate > 0)) return undefined;
  const count = Math.ceil(rate * ((end - w.start_us) / 1e6));
  return count === 0 ? undefined : { end, rate, count };
}
