/**
 * The records of a decision trace, one JSON object per line. Field names are short because a
 * trace has one line per decision; docs/tracing.md describes every field. Times are integer
 * microseconds of simulated time (`ts`), as everywhere in BLIS.
 */

import type { PoolType } from '@blis/policies';
import type { ScaleOutcome } from './decision-observer.js';

/** The trace format version written in the header; readers reject other versions. */
export const TRACE_FORMAT_VERSION = 1;

export type TraceLevel = 'none' | 'decisions' | 'full';

/** First line: how the trace was recorded. */
export interface HeaderRecord {
  t: 'header';
  version: number;
  level: 'decisions' | 'full';
  /** Top candidates recorded per routing decision (0 = none). */
  k: number;
  /** Run-level TTFT and E2E targets in µs (0 = none); per-request targets override the TTFT one. */
  slo_ttft_us: number;
  slo_e2e_us: number;
  /** p99/p50 TTFT ratio above which an SLO class counts as a tail-latency blowup. */
  tail_ratio: number;
  /** Policy names, when the recorder was told them. */
  policies: Record<string, string>;
  /** Instances configured at the start (absent in traces of older versions of the recorder). */
  instances?: number;
}

export interface AdmissionRecord {
  t: 'admit';
  ts: number;
  id: string;
  tenant: string;
  slo: string;
  admit: boolean;
  reason: string;
  /** Router state the admission policy saw. */
  in_flight: number;
  rate: number;
  saturation: number;
}

export interface PriorityRecord {
  t: 'priority';
  ts: number;
  id: string;
  score: number;
}

/** What the routing policy saw of one instance (index = position in `snap`). */
export interface SnapshotEntry {
  /** Queue depth, batch size, router-side in-flight requests. */
  q: number;
  b: number;
  f: number;
  /** KV utilisation (0..1) and free KV blocks. */
  kv: number;
  free: number;
  /** Leading blocks of this request's prompt the instance's cache held at decision time. */
  pb: number;
  /** Age of the instance-reported signals (µs). */
  age: number;
}

export interface CandidateEntry {
  /** Instance index (the position in `scores` maps through `pool` when the record has one). */
  i: number;
  /** Final score the ranking used. */
  s: number;
  /** Per-scorer raw scores for this instance (empty when the policy has no scorers). */
  by: Record<string, number>;
}

/** A routing decision against what the router saw: the fields `route` and `prefill_routing` share. */
export interface RoutingDecisionFields {
  /** Chosen instance (its index; with a `pool`, the position in `scores` is `pool.indexOf(inst)`). */
  inst: number;
  reason: string;
  /** 'policy' when the policy returned scores, 'load' for BLIS's fallback -(queue+batch+in-flight). */
  scored: 'policy' | 'load';
  /** Score of every instance the router saw, by position. */
  scores: number[];
  /** Per-scorer raw scores of every instance, keyed by scorer name (empty for unscored policies). */
  by: Record<string, number[]>;
  snap: SnapshotEntry[];
  /** best score - chosen score, clamped at 0. */
  regret: number;
  /**
   * Under P/D the router sees one pool: the instance index of each position. Absent when the
   * router saw every instance (position = index).
   */
  pool?: number[];
  /** The top K candidates by score (ties to the lower position); present when K > 0. */
  topk?: CandidateEntry[];
}

export interface RoutingRecord extends RoutingDecisionFields {
  t: 'route';
  /** 0-based sequence number of the routing decision. */
  seq: number;
  ts: number;
  id: string;
  tenant: string;
  slo: string;
  /** Prompt tokens and full prompt blocks. */
  in: number;
  blocks: number;
  /** Hash of the first prompt block, hex ('' when the prompt has no full block). */
  prefix: string;
  /** Present only for a request on a LoRA adapter: its id. */
  adapter?: string;
  /** With `adapter`: per position, 1 when the router saw the adapter resident on the instance. */
  warm?: number[];
}

/**
 * P/D: the decider's answer for a request, after the decode router chose its decode pod. One per
 * request under P/D; a request kept local then has a `route` record (decode pool), a
 * disaggregated one a `prefill_routing` and, once its KV arrives, a `kv_transfer` record.
 */
export interface DisaggregationRecord {
  t: 'disaggregation';
  ts: number;
  id: string;
  /** Whether the request was split (a request without a prompt is kept local whatever the decider says). */
  disaggregate: boolean;
  reason: string;
  /** The decode pod (instance index): it decodes the request, or runs it whole when kept local. */
  decode_inst: number;
}

/** P/D: where a disaggregated request's prefill part went; the fields are a `route` record's. */
export interface PrefillRoutingRecord extends RoutingDecisionFields {
  t: 'prefill_routing';
  ts: number;
  /** The parent request's id (the part runs as `<id>_prefill`). */
  id: string;
  /** Instance index of each position (always present: the prefill pool). */
  pool: number[];
}

/**
 * E/P/D: the encode pod chosen for a request's multimodal inputs (BLIS's EncodeRoutingRecord),
 * by the main routing policy on the encode pool, after the decode pod and the P/D decider. A
 * zero-duration stage: nothing runs on the encode pod. The fields are a `route` record's.
 */
export interface EncodeRoutingRecord extends RoutingDecisionFields {
  t: 'encode_routing';
  ts: number;
  /** The request's id. */
  id: string;
  /** Instance index of each position (always present: the encode pool). */
  pool: number[];
}

/** P/D: a KV transfer delivered a prompt's KV to its decode pod (BLIS's KVTransferRecord). */
export interface KvTransferRecord {
  t: 'kv_transfer';
  /** When the transfer completed (the decode part joined the decode pod's queue). */
  ts: number;
  /** The parent request's id. */
  id: string;
  /** Transfer start and duration, µs. */
  start_us: number;
  dur_us: number;
  /** KV blocks moved: ceil(prompt / block size). */
  blocks: number;
  prefill_inst: number;
  decode_inst: number;
}

/** `drained`: discarded by an `immediate` drain of its replica. */
export type OutcomeStatus = 'completed' | 'rejected' | 'shed' | 'unservable' | 'timed_out' | 'drained';

/**
 * Closes a request: every earlier record with the same `id` is linked to this outcome. Written
 * when the request leaves the system, since a stream cannot rewrite its earlier lines.
 */
export interface OutcomeRecord {
  t: 'outcome';
  ts: number;
  id: string;
  status: OutcomeStatus;
  slo: string;
  /** Instance that served it (-1 when it never reached one). */
  inst: number;
  /** Client-observed TTFT and E2E (network delay included), µs; completed requests only. */
  ttft_us?: number;
  e2e_us?: number;
  /** Output tokens produced (completed only). */
  out?: number;
  /** Full prompt blocks and how many were found in the prefix cache when last scheduled. */
  blocks: number;
  hit_blocks: number;
  preemptions: number;
  /** TTFT target that applied (µs, 0 = none). */
  target_us: number;
  /** Whether every applicable target was met; null when no target applies or not completed. */
  slo_met: boolean | null;
  /** A request a router refused (`RoutingDecision.reject`): the router's reason. Absent otherwise. */
  reason?: string;
}

export interface QueuedRecord {
  t: 'queued';
  ts: number;
  id: string;
  inst: number;
  prio: number;
}

export interface ScheduledRecord {
  t: 'scheduled';
  ts: number;
  id: string;
  inst: number;
  prio: number;
  hit_blocks: number;
}

export interface PreemptedRecord {
  t: 'preempted';
  ts: number;
  id: string;
  inst: number;
}

/** One batch formation (an engine step). */
export interface BatchRecord {
  t: 'batch';
  ts: number;
  inst: number;
  /** Step duration, µs. */
  dt: number;
  prefill: number;
  prefill_tokens: number;
  decode: number;
}

/**
 * One autoscaler evaluation of one scaling group: the signals it saw and what became of it.
 * Written for every evaluation, whether or not it led to an action.
 */
export interface ScaleRecord {
  t: 'scale';
  ts: number;
  /** The scaling group (its pool: `monolithic`, or `prefill` / `decode` under P/D). */
  pool: PoolType;
  /** The autoscaling policy's name. */
  policy: string;
  /** Routable, pending (scheduling or loading) and draining replicas of the group. */
  routable: number;
  pending: number;
  draining: number;
  /** Mean queue depth and mean KV utilisation (0..1) of the group, as the autoscaler saw them. */
  avg_q: number;
  avg_kv: number;
  /** Waiting requests and the request rate, as the autoscaler saw them. */
  waiting: number;
  rate: number;
  /** What the policy computed (supply, demand, ...), by name. */
  signals: Record<string, number>;
  /** The policy's replica delta, and the delta after the replica bounds. */
  proposed: number;
  delta: number;
  /** `hold`, `stabilizing`, `cooldown` or `scheduled` (actuation follows after the scrape delay). */
  outcome: ScaleOutcome;
  reason: string;
}

/** A scale action carried out (after the scrape delay). */
export interface ScaleActionRecord {
  t: 'scale_action';
  ts: number;
  pool: PoolType;
  /** The group's replicas (routable plus pending) before and after. */
  before: number;
  after: number;
  /** Ids of the replicas created (scale-up) or set draining (scale-down). */
  ids: string[];
  /** Scale-up replicas that found no node and no pool that could grow. */
  unplaced: number;
}

/** A replica changed lifecycle state. */
export interface InstanceStateRecord {
  t: 'instance_state';
  ts: number;
  /** Instance index, and the replica's id. */
  inst: number;
  id: string;
  /** `scheduling`, `loading`, `warming-up`, `active`, `draining` or `terminated`. */
  state: string;
}

export type AnomalyKind = 'priority_inversion' | 'hol_blocking' | 'kv_thrashing' | 'scale_oscillation' | 'tail_latency_blowup';

export const ANOMALY_KINDS: readonly AnomalyKind[] = ['priority_inversion', 'hol_blocking', 'kv_thrashing', 'scale_oscillation', 'tail_latency_blowup'];

export interface AnomalyRecord {
  t: 'anomaly';
  ts: number;
  kind: AnomalyKind;
  /** Instance involved (-1 for cluster-wide anomalies). */
  inst: number;
  /**
   * Requests involved; for inversions and HOL blocking the favoured request comes first. Scale
   * oscillations name no request (empty).
   */
  ids: string[];
  /** SLO class (tail-latency blowup only). */
  slo?: string;
  /** The scaling group whose applied action reversed its previous one (scale oscillation only). */
  pool?: string;
  /** p50 and p99 TTFT and their ratio (tail-latency blowup only). */
  p50_us?: number;
  p99_us?: number;
  ratio?: number;
}

/** Last line: the simulation's end time. */
export interface EndRecord {
  t: 'end';
  ts: number;
}

export type TraceRecord =
  | HeaderRecord
  | AdmissionRecord
  | PriorityRecord
  | RoutingRecord
  | DisaggregationRecord
  | PrefillRoutingRecord
  | EncodeRoutingRecord
  | KvTransferRecord
  | OutcomeRecord
  | QueuedRecord
  | ScheduledRecord
  | PreemptedRecord
  | BatchRecord
  | ScaleRecord
  | ScaleActionRecord
  | InstanceStateRecord
  | AnomalyRecord
  | EndRecord;

export type TraceRecordKind = TraceRecord['t'];
