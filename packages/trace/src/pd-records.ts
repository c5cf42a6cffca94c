import type { SimRequest } from '@blis/engine';
import type { DisaggregationDecision, RouterState, RoutingDecision } from '@blis/policies';
import type { PdTransferRecord } from './decision-observer.js';
import type { DisaggregationRecord, EncodeRoutingRecord, KvTransferRecord, PrefillRoutingRecord } from './records.js';
import { routingFields } from './routing-fields.js';

/**
 * The decider's answer as the cluster acted on it: a request without a prompt has no KV to
 * move and is kept local whatever the decider said, so the record says what happened (and why).
 */
export function disaggregationRecord(req: SimRequest, decision: DisaggregationDecision, decodeInstance: number, now: number): DisaggregationRecord {
  const split = decision.disaggregate && req.inputTokens > 0;
  const reason = decision.disaggregate && !split ? `${decision.reason}; no prompt, kept local` : decision.reason;
  return { t: 'disaggregation', ts: now, id: req.view.id, disaggregate: split, reason, decode_inst: decodeInstance };
}

/** The prefill part's routing, named by its parent; scored and judged as a `route` record is. */
export function prefillRoutingRecord(parent: SimRequest, decision: RoutingDecision, state: RouterState, now: number, k: number): PrefillRoutingRecord {
  const f = routingFields(decision, state, parent.view.blockHashes, now, k);
  return {
    t: 'prefill_routing',
    ts: now,
    id: parent.view.id,
    ...f.fields,
    pool: f.pool ?? state.instances.map((s) => s.index),
    topk: f.topk,
  };
}

/** The encode stage's choice of encode pod for `req`; scored and judged as a `route` record is. */
export function encodeRoutingRecord(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number, k: number): EncodeRoutingRecord {
  const f = routingFields(decision, state, req.view.blockHashes, now, k);
  return {
    t: 'encode_routing',
    ts: now,
    id: req.view.id,
    ...f.fields,
    pool: f.pool ?? state.instances.map((s) => s.index),
    topk: f.topk,
  };
}

export function kvTransferRecord(r: PdTransferRecord, now: number): KvTransferRecord {
  return {
    t: 'kv_transfer',
    ts: now,
    id: r.requestId,
    start_us: r.startUs,
    dur_us: r.durationUs,
    blocks: r.numKVBlocks,
    prefill_inst: r.prefillInstance,
    decode_inst: r.decodeInstance,
  };
}
