import type { SimulationResult } from '../results.js';
import type { ViolationList } from './violation.js';

/** What shapes the result-level checks: whether the run drained, and whether replicas came and went. */
export interface ResultContext {
  /** A horizon may have cut the run off (work may be left in the system). */
  cutOff: boolean;
  /** Autoscaling holds requests while no replica is routable, outside the instances' counts. */
  autoscaled: boolean;
}

/**
 * INV-1 (conservation: injected = completed + queued + running + dropped + rejected + timed out,
 * plus drained under autoscaling; nothing left once a run without horizon drains), routing
 * accounting (every admitted request was routed once) and INV-5 on the reported per-request
 * numbers (scheduling delay >= 0, TTFT > 0, E2E >= TTFT, one record per completion).
 */
export function checkResult(r: SimulationResult, ctx: ResultContext, out: ViolationList): void {
  const drained = r.autoscaling?.drained_dropped ?? 0;
  // Flow control's own exits: expired at the gateway, evicted from an instance.
  const expired = r.gateway?.expired_requests ?? 0;
  const evicted = r.gateway?.evicted_requests ?? 0;
  const accounted = r.completed_requests + r.still_queued + r.still_running + r.dropped_unservable + r.rejected_requests + r.timed_out_requests + drained + expired + evicted;
  const parts = () =>
    `injected ${r.injected_requests} vs completed ${r.completed_requests} + queued ${r.still_queued} + running ${r.still_running} + unservable ${r.dropped_unservable} + rejected ${r.rejected_requests} + timed out ${r.timed_out_requests} + drained ${drained} + expired ${expired} + evicted ${evicted}`;
  // Held requests (no routable replica) are in no bucket of the result.
  if (ctx.autoscaled) out.check(accounted <= r.injected_requests, 'INV-1', parts);
  else out.check(accounted === r.injected_requests, 'INV-1', parts);
  // A gateway that can never dispatch again (its detector saturated by an idle pool) ends the run holding its queue.
  const stuck = r.gateway?.still_queued ?? 0;
  if (!ctx.cutOff && !ctx.autoscaled)
    out.check(r.still_queued - stuck + r.still_running === 0, 'INV-1', () => `the run drained yet ${r.still_queued} requests are queued and ${r.still_running} running`);
  if (!ctx.autoscaled && r.pd === undefined) {
    const routed = Object.values(r.target_distribution).reduce((a, b) => a + b, 0);
    const admitted = r.injected_requests - r.rejected_requests - expired - (r.gateway?.still_queued ?? 0);
    out.check(routed === admitted, 'INV-1', () => `${routed} requests routed, ${admitted} admitted (shedding counts as rejection) and not held at the gateway`);
  }
  const records = r.requests;
  if (records === undefined) return;
  out.check(records.length === r.completed_requests, 'INV-1', () => `${records.length} per-request records for ${r.completed_requests} completions`);
  const seen = new Set<string>();
  for (const q of records) {
    const where = { request: q.request_id };
    if (seen.has(q.request_id)) out.add('INV-2', `request ${q.request_id} completed twice`, where);
    seen.add(q.request_id);
    if (!(q.scheduling_delay_ms >= 0)) out.add('INV-5', `request ${q.request_id}: scheduling delay ${q.scheduling_delay_ms} ms`, where);
    if (!(q.ttft_ms > 0)) out.add('INV-5', `request ${q.request_id}: TTFT ${q.ttft_ms} ms`, where);
    if (!(q.e2e_ms >= q.ttft_ms)) out.add('INV-5', `request ${q.request_id}: E2E ${q.e2e_ms} ms before its TTFT ${q.ttft_ms} ms`, where);
  }
  checkUnfinishedRecords(r, seen, out);
}

/**
 * The records account for every injected request once: the unfinished ones' outcomes tally with
 * the result's counters, and no id is both completed and unfinished.
 */
function checkUnfinishedRecords(r: SimulationResult, seen: Set<string>, out: ViolationList): void {
  const rest = r.unfinished_requests;
  if (rest === undefined) return;
  const records = r.requests ?? [];
  out.check(records.length + rest.length === r.injected_requests, 'INV-1', () => `${records.length} completed and ${rest.length} unfinished records for ${r.injected_requests} injected requests`);
  const count = new Map<string, number>();
  for (const q of rest) {
    if (seen.has(q.request_id)) out.add('INV-2', `request ${q.request_id} has two records (the second: ${q.outcome})`, { request: q.request_id });
    seen.add(q.request_id);
    count.set(q.outcome, (count.get(q.outcome) ?? 0) + 1);
    if (q.left_ms !== null && !(q.left_ms >= q.arrival_ms)) out.add('INV-5', `request ${q.request_id} left at ${q.left_ms} ms, before it arrived at ${q.arrival_ms} ms`, { request: q.request_id });
  }
  const n = (o: string) => count.get(o) ?? 0;
  const tally: [string, number, number][] = [
    ['dropped_unservable', n('dropped_unservable'), r.dropped_unservable],
    ['timed_out', n('timed_out'), r.timed_out_requests],
    ['rejected + shed', n('rejected') + n('shed'), r.rejected_requests],
    ['drained', n('drained'), r.autoscaling?.drained_dropped ?? 0],
    ['expired', n('expired'), r.gateway?.expired_requests ?? 0],
    ['evicted', n('evicted'), r.gateway?.evicted_requests ?? 0],
  ];
  for (const [what, records, counter] of tally) out.check(records === counter, 'INV-1', () => `${records} ${what} records, the result counts ${counter}`);
}

/**
 * KV tier invariants: tier counters present on every block exactly when the run has tiers, the
 * cluster's counters the sum of its instances', no more CPU evictions than blocks mirrored
 * (CPU model), rates within [0, 1].
 */
export function checkKvTiers(r: SimulationResult, expectTiers: boolean | undefined, out: ViolationList): void {
  const t = r.kv_tiers;
  if (expectTiers !== undefined) out.check((t !== undefined) === expectTiers, 'KV-TIER', () => (expectTiers ? 'a tiered run reports no kv_tiers' : 'a run without tiers reports kv_tiers'));
  for (const b of [r, ...r.instances]) {
    out.check(b.cache_hit_rate >= 0 && b.cache_hit_rate <= 1, 'KV-TIER', () => `${b.instance_id}: cache hit rate ${b.cache_hit_rate}`);
    if (b.kv_thrashing_rate !== undefined) out.check(b.kv_thrashing_rate >= 0 && b.kv_thrashing_rate <= 1, 'KV-TIER', () => `${b.instance_id}: thrashing rate ${b.kv_thrashing_rate}`);
  }
  if (t === undefined) return;
  const sum = (pick: (k: NonNullable<typeof t>) => number) => r.instances.reduce((a, b) => a + (b.kv_tiers ? pick(b.kv_tiers) : 0), 0);
  for (const key of ['mirrored_blocks', 'reloaded_blocks', 'cpu_evictions', 'tier_misses', 'promotions_fired', 'deferrals', 'transfer_latency_us'] as const) {
    const total = sum((k) => k[key]);
    out.check(t[key] === total, 'KV-TIER', () => `cluster ${key} ${t[key]}, instances sum to ${total}`);
    out.check(t[key] >= 0, 'KV-TIER', () => `cluster ${key} ${t[key]} < 0`);
  }
  if (t.model === 'cpu') out.check(t.cpu_evictions <= t.mirrored_blocks, 'KV-TIER', () => `${t.cpu_evictions} CPU evictions of ${t.mirrored_blocks} blocks mirrored`);
}
