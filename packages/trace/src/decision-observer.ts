import type { SimRequest } from '@blis/engine';
import type { StepBatch } from '@blis/latency';
import type { AdmissionDecision, DisaggregationDecision, PoolType, RouterState, RoutingDecision } from '@blis/policies';

/** What happened to a KV block between tiers (see {@link DecisionObserver.onKvTransfer}). */
export type KvTransferKind = 'reload' | 'cpu_evict' | 'promotion_refused';

/** A P/D KV transfer that delivered a prompt's KV to its decode pod (BLIS's KVTransferRecord). */
export interface PdTransferRecord {
  /** The parent request's id. */
  readonly requestId: string;
  readonly startUs: number;
  readonly durationUs: number;
  readonly numKVBlocks: number;
  readonly prefillInstance: number;
  readonly decodeInstance: number;
}

/** What became of one autoscaler evaluation. */
export type ScaleOutcome =
  /** The policy asked for no change (or the bounds left none). */
  | 'hold'
  /** A stabilization window is still running for this direction. */
  | 'stabilizing'
  /** Within the cooldown after the previous action. */
  | 'cooldown'
  /** Passed: actuation is scheduled after the scrape delay. */
  | 'scheduled';

/** One autoscaler evaluation of one scaling group: the signals it saw and what it decided. */
export interface ScaleEvaluation {
  readonly pool: PoolType;
  readonly policy: string;
  /** Routable, pending (scheduling or loading) and draining replicas of the group. */
  readonly routable: number;
  readonly pending: number;
  readonly draining: number;
  readonly avgQueueDepth: number;
  readonly avgKvUtilization: number;
  readonly waitingRequests: number;
  readonly requestRate: number;
  /** What the policy computed (supply, demand, ...). */
  readonly signals: Readonly<Record<string, number>>;
  /** The policy's delta, and the delta after the replica bounds. */
  readonly proposed: number;
  readonly delta: number;
  readonly outcome: ScaleOutcome;
  readonly reason: string;
}

/** A scale action carried out (after the scrape delay). */
export interface ScaleAction {
  readonly pool: PoolType;
  /** The group's replicas (routable plus pending) before and after. */
  readonly before: number;
  readonly after: number;
  /** Ids of the replicas created (scale-up) or set draining (scale-down). */
  readonly instances: readonly string[];
  /** Scale-up replicas that found no node and no pool that could grow. */
  readonly unplaced: number;
}

/**
 * What the cluster reports as it runs. The trace recorder implements it; the cluster calls
 * only the hooks that are present, so a run without tracing pays nothing.
 */
export interface DecisionObserver {
  onAdmission?(req: SimRequest, decision: AdmissionDecision, state: RouterState, now: number): void;
  onPriority?(req: SimRequest, score: number, now: number): void;
  onRouting?(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void;
  /** The request entered `instance`'s wait queue (after its alpha queueing delay). */
  onQueued?(req: SimRequest, now: number, instance: number): void;
  onScheduled?(req: SimRequest, now: number, instance: number): void;
  onPreempted?(req: SimRequest, now: number, instance: number): void;
  onStep?(now: number, stepTime: number, batch: StepBatch, instance: number): void;
  onCompleted?(req: SimRequest, now: number, e2eUs: number): void;
  /**
   * `drained`: discarded by an `immediate` drain of its replica. `detail`: for a request a
   * router refused (`RoutingDecision.reject`), the router's reason; absent otherwise.
   */
  onDropped?(req: SimRequest, now: number, reason: 'unservable' | 'rejected' | 'timed_out' | 'shed' | 'drained', detail?: string): void;
  /**
   * P/D: the decider's answer for `req`, after the decode router chose `decodeInstance` (an
   * instance index). A request kept local is then reported through {@link onRouting} too, with
   * the decode pool as the state.
   */
  onDisaggregation?(req: SimRequest, decision: DisaggregationDecision, decodeInstance: number, now: number): void;
  /** P/D: where the prefill part of `req` (the parent request) goes; `state` is the prefill pool. */
  onPrefillRouting?(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void;
  /**
   * E/P/D: the encode stage chose an encode pod for `req` (after the decode pod and the P/D
   * decider); `state` is the encode pool. Nothing is sent there: the stage takes no time.
   */
  onEncodeRouting?(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void;
  /** P/D: a KV transfer completed and the decode part joined its pod's wait queue. */
  onPdTransfer?(record: PdTransferRecord, now: number): void;
  /** An autoscaler evaluation of one scaling group. */
  onScaleEvaluation?(evaluation: ScaleEvaluation, now: number): void;
  /** A scale action was carried out. */
  onScaleAction?(action: ScaleAction, now: number): void;
  /** A replica changed lifecycle state (`scheduling`, `loading`, `warming-up`, `active`, `draining`, `terminated`). */
  onInstanceState?(instance: number, id: string, state: string, now: number): void;
  /**
   * A KV block moved between cache tiers on `instance`: reloaded from the CPU tier onto the GPU,
   * evicted from the CPU tier (`storedAtUs`: when the mirror had stored it there), or refused
   * promotion from a secondary tier by the offload chain's evictable gate.
   */
  onKvTransfer?(blockHash: number, kind: KvTransferKind, now: number, instance: number, storedAtUs?: number): void;
}
