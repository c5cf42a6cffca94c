import type { SimulationResult } from '../results.js';
import type { RunLog } from './run-log.js';
import type { ViolationList } from './violation.js';

const servesPrefill = (p: string | undefined) => p === 'prefill' || p === 'shared';
const servesDecode = (p: string | undefined) => p === 'decode' || p === 'shared';

/**
 * P/D invariants from the result: INV-PD-3 (every transfer that started finished, unless a
 * horizon cut the run; transfers = delivered + dropped at the decode pod's KV, plus some of the
 * requests a drain discarded under autoscaling), INV-PD-2 (pods in
 * no pool get nothing) and INV-PD-6 (per-request records are the parents', once each).
 */
export function checkPdResult(r: SimulationResult, out: ViolationList, cutOff: boolean): void {
  const pd = r.pd;
  if (pd === undefined) return;
  if (pd.transfers_completed > pd.transfers_initiated) out.add('INV-PD-3', `${pd.transfers_completed} transfers completed of ${pd.transfers_initiated} initiated`);
  if (!cutOff) {
    if (pd.transfers_initiated !== pd.transfers_completed) out.add('INV-PD-3', `${pd.transfers_initiated} transfers initiated, ${pd.transfers_completed} completed`);
    // A drain (`immediate`) may discard a decode part after its KV arrived: those transfers are
    // among the drained requests, which the result does not split by stage.
    const settled = pd.disaggregated_requests + pd.dropped_at_decode_kv;
    const drained = r.autoscaling?.drained_dropped ?? 0;
    if (pd.transfers_initiated < settled || pd.transfers_initiated > settled + drained)
      out.add(
        'INV-PD-3',
        `${pd.transfers_initiated} transfers initiated != ${pd.disaggregated_requests} delivered + ${pd.dropped_at_decode_kv} dropped at the decode pod${drained > 0 ? ` (+ up to ${drained} drained)` : ''}`,
      );
  }
  if (pd.dropped_at_decode_kv > r.dropped_unservable) out.add('INV-PD-3', `${pd.dropped_at_decode_kv} dropped at the decode pod's KV, only ${r.dropped_unservable} dropped in all`);
  r.instances.forEach((b, i) => {
    if (b.pool !== 'unassigned') return;
    const routed = r.target_distribution[b.instance_id] ?? 0;
    if (routed !== 0 || b.completed_requests !== 0) out.add('INV-PD-2', `instance ${i} is in no pool yet was routed ${routed} and completed ${b.completed_requests}`);
  });
  for (const q of r.requests ?? []) if (/_(prefill|decode)$/.test(q.request_id)) out.add('INV-PD-6', `a per-request record of a part: ${q.request_id}`, { request: q.request_id });
  checkEncodeResult(r, out);
}

/**
 * E/P/D: encode pods run nothing (the stage is a routing decision), the stage's choices add up,
 * and its rejections are among the run's rejections (INV-1 counts them there).
 */
function checkEncodeResult(r: SimulationResult, out: ViolationList): void {
  const enc = r.pd?.encode;
  const pods = r.pd?.pools.encode;
  if (enc === undefined) {
    out.check(pods === undefined, 'INV-PD-2', () => `encode pods ${pods?.join(', ')} without an encode stage`);
    return;
  }
  const chosen = Object.values(enc.encode_distribution).reduce((a, b) => a + b, 0);
  out.check(chosen === enc.encoded_requests, 'INV-EPD', () => `encode pods chosen ${chosen} times for ${enc.encoded_requests} encoded requests`);
  out.check(enc.encode_routing_rejections <= r.rejected_requests, 'INV-1', () => `${enc.encode_routing_rejections} encode routing rejections, only ${r.rejected_requests} rejected in all`);
  if (enc.decider === 'never') out.check(enc.encoded_requests + enc.encode_routing_rejections === 0, 'INV-EPD', () => `the never decider sent ${enc.encoded_requests + enc.encode_routing_rejections} requests to the encode stage`);
  r.instances.forEach((b) => {
    if (b.pool !== 'encode') return;
    const routed = r.target_distribution[b.instance_id] ?? 0;
    out.check(routed === 0 && b.completed_requests === 0, 'INV-PD-2', () => `encode pod ${b.instance_id} was routed ${routed} and completed ${b.completed_requests}`);
  });
}

/**
 * P/D invariants from the log: INV-PD-2 (each part runs on a pod of its pool, a decode part on
 * the decode pod chosen for it), INV-PD-3 (one transfer per request), INV-PD-4 (a transfer
 * starts after its prefill was routed and its last prefill step began, lasts at least 1 µs, and
 * precedes its decode part and the parent's completion) and INV-PD-6 (only parents complete or drop).
 */
export function checkPdLog(log: RunLog, pools: readonly string[], out: ViolationList): void {
  const decodePick = new Map<string, number>();
  const prefillRoutedAt = new Map<string, number>();
  const prefillScheduledAt = new Map<string, number>();
  const transferEnd = new Map<string, number>();
  const split = new Set<string>();
  const dropped = new Set<string>();
  const parentOf = (id: string) => id.replace(/_(prefill|decode)$/, '');
  for (const e of log.events) {
    const where = 'request' in e ? { request: e.request, atUs: e.now } : { atUs: e.now };
    switch (e.kind) {
      case 'disaggregation':
        if (!servesDecode(pools[e.decodeInstance])) out.add('INV-PD-2', `decode pod ${e.decodeInstance} of ${e.request} is a ${pools[e.decodeInstance]} pod`, where);
        if (e.split) {
          split.add(e.request);
          decodePick.set(e.request, e.decodeInstance);
        }
        break;
      case 'routing':
        if (e.stage === 'prefill-routing') {
          if (!servesPrefill(pools[e.instance])) out.add('INV-PD-2', `prefill of ${e.request} routed to instance ${e.instance}, a ${pools[e.instance]} pod`, where);
          if (!split.has(e.request)) out.add('INV-PD-4', `prefill routing of ${e.request}, which was not split`, where);
          prefillRoutedAt.set(e.request, e.now);
        } else if (!servesDecode(pools[e.instance])) out.add('INV-PD-2', `${e.request} routed to instance ${e.instance}, a ${pools[e.instance]} pod`, where);
        break;
      case 'queued':
      case 'scheduled': {
        const pool = pools[e.instance];
        const ok = e.part === 'prefill' ? servesPrefill(pool) : servesDecode(pool);
        if (!ok) out.add('INV-PD-2', `${e.kind}: ${e.request} (${e.part}) on instance ${e.instance}, a ${pool} pod`, where);
        if (e.kind !== 'scheduled') break;
        const id = parentOf(e.request);
        if (e.part === 'prefill') prefillScheduledAt.set(id, e.now);
        else if (e.part === 'decode') {
          const end = transferEnd.get(id);
          if (end === undefined || e.now < end) out.add('INV-PD-4', `decode part of ${id} scheduled at ${e.now} µs, its transfer ended at ${end ?? 'never'}`, where);
          if (e.instance !== decodePick.get(id)) out.add('INV-PD-2', `decode part of ${id} on instance ${e.instance}, its decode pod is ${decodePick.get(id)}`, where);
        } else if (split.has(e.request)) out.add('INV-PD-2', `${e.request} was split but runs whole`, where);
        break;
      }
      case 'pd-transfer': {
        const id = e.request;
        const routed = prefillRoutedAt.get(id);
        const sched = prefillScheduledAt.get(id);
        if (routed === undefined || e.startUs < routed) out.add('INV-PD-4', `transfer of ${id} starts at ${e.startUs} µs, its prefill was routed at ${routed ?? 'never'}`, where);
        // The transfer starts when the last prefill step ends, and every step takes at least 1 µs.
        if (sched === undefined || e.startUs <= sched) out.add('INV-PD-4', `transfer of ${id} starts at ${e.startUs} µs, its prefill was last scheduled at ${sched ?? 'never'}`, where);
        if (e.durationUs < 1 || e.now !== e.startUs + e.durationUs) out.add('INV-PD-4', `transfer of ${id}: start ${e.startUs} + ${e.durationUs} µs reported at ${e.now} µs`, where);
        if (!servesPrefill(pools[e.prefillInstance]) || !servesDecode(pools[e.decodeInstance]))
          out.add('INV-PD-2', `transfer of ${id} from a ${pools[e.prefillInstance]} pod to a ${pools[e.decodeInstance]} pod`, where);
        if (e.decodeInstance !== decodePick.get(id)) out.add('INV-PD-2', `transfer of ${id} to instance ${e.decodeInstance}, its decode pod is ${decodePick.get(id)}`, where);
        if (transferEnd.has(id)) out.add('INV-PD-3', `second transfer for ${id}`, where);
        transferEnd.set(id, e.now);
        break;
      }
      case 'completed':
      case 'dropped': {
        if (e.kind === 'dropped') dropped.add(e.request);
        if (e.part !== 'whole') out.add('INV-PD-6', `${e.kind} reported for part ${e.request}`, where);
        const end = transferEnd.get(e.request);
        if (e.kind === 'completed' && split.has(e.request) && (end === undefined || e.now <= end))
          out.add('INV-PD-4', `${e.request} completed at ${e.now} µs, its transfer ended at ${end ?? 'never'}`, where);
        break;
      }
    }
  }
  // A split parent whose KV never arrived was dropped (or is still live: a horizon cut the run,
  // or the autoscaler holds it).
  if (!log.facts.cutOff && log.facts.replicaBounds === undefined) for (const id of split) if (!transferEnd.has(id) && !dropped.has(id)) out.add('INV-PD-3', `${id} was split, never transferred, yet not dropped`, { request: id });
}

/**
 * The decider's bookkeeping, from the log and the result together: every routed request was
 * decided once, local or split; `local_requests` counts the local ones and
 * `disaggregated_requests` the transfers that delivered; a split parent whose KV never arrived
 * was dropped (at the decode pod's KV reservation, or lost in prefill). Not under autoscaling
 * (a redirect decides a request again).
 */
export function checkPdBookkeeping(r: SimulationResult, log: RunLog, out: ViolationList): void {
  const pd = r.pd;
  if (pd === undefined) return;
  let decisions = 0;
  let split = 0;
  let transfers = 0;
  for (const e of log.events) {
    if (e.kind === 'disaggregation') {
      decisions++;
      if (e.split) split++;
    } else if (e.kind === 'pd-transfer') transfers++;
  }
  const routed = r.injected_requests - r.rejected_requests - (r.gateway?.expired_requests ?? 0) - (r.gateway?.still_queued ?? 0);
  if (!log.facts.cutOff) out.check(decisions === routed, 'INV-PD-BOOK', () => `${decisions} decider decisions for ${routed} routed requests`);
  out.check(pd.local_requests === decisions - split, 'INV-PD-BOOK', () => `local_requests ${pd.local_requests}, the decider kept ${decisions - split} local`);
  out.check(pd.disaggregated_requests === transfers, 'INV-PD-BOOK', () => `disaggregated_requests ${pd.disaggregated_requests}, ${transfers} transfers delivered`);
  out.check(split - transfers >= pd.dropped_at_decode_kv, 'INV-PD-BOOK', () => `${pd.dropped_at_decode_kv} dropped at the decode pod's KV, only ${split - transfers} split parents never delivered`);
}
