import type { RandomSource } from './random-source.js';
import type {
  AutoScaleContext,
  InstanceSnapshot,
  RequestView,
  RouterState,
  SchedulerContext,
  SchedulerEntry,
} from './views.js';

export interface AdmissionDecision {
  readonly admit: boolean;
  /** Short machine-readable reason, recorded in decision traces. */
  readonly reason: string;
}

export interface AdmissionPolicy extends ReportsMetrics {
  readonly name: string;
  admit(request: RequestView, state: RouterState): AdmissionDecision;
}

export interface PriorityPolicy extends ReportsMetrics {
  readonly name: string;
  /** Higher is more urgent. Called at admission and again before each batch formation. */
  priority(request: RequestView, nowUs: number): number;
  /** True when the score depends on time, so queued requests must be re-scored each step. */
  readonly timeDependent?: boolean;
}

/** One scorer's opinion of every instance, written into `out` (length = instances). */
export interface Scorer extends ReportsMetrics {
  readonly name: string;
  score(request: RequestView, state: RouterState, out: Float64Array): void;
  /**
   * Called after the routing decision (stateful scorers update their index here); `chosen` is a
   * position in `state.instances`, as in {@link RoutingDecision.instance}.
   */
  observe?(request: RequestView, chosen: number, state: RouterState): void;
}

export interface RoutingDecision {
  /**
   * Position of the chosen instance in `state.instances` (also the index into `scores` and each
   * `breakdown` array). Stateful policies remember instances by `InstanceSnapshot.index`.
   */
  readonly instance: number;
  readonly reason: string;
  /**
   * Final per-instance scores the policy ranked by, when it ranks (weighted and friends).
   * Used for counterfactual regret. Policies that do not score leave it undefined.
   */
  readonly scores?: ArrayLike<number>;
  /** Per-scorer raw scores, keyed by scorer name, for traces. */
  readonly breakdown?: Readonly<Record<string, ArrayLike<number>>>;
  /**
   * True: the router refuses the request (RouteSim's `Reject`). It is dropped with the outcome
   * `rejected`, counted like an admission rejection, and `instance` is ignored.
   */
  readonly reject?: boolean;
  /**
   * A priority hint (RouteSim's `RouteWithPriority`): replaces the priority policy's score for
   * this request from now on (higher is more urgent). Absent keeps the priority policy's score.
   */
  readonly priority?: number;
}

/** What a router may hear about (RouteSim's `on_event`). */
export type RouterEventKind = 'arrival' | 'routed' | 'completed' | 'dropped';

/** One event a router's {@link RoutingPolicy.onEvent} hook receives. */
export interface RouterEvent {
  readonly kind: RouterEventKind;
  readonly nowUs: number;
  readonly request: RequestView;
  /** `routed` and `completed`: the instance's stable `InstanceSnapshot.index`. */
  readonly instance?: number;
  /**
   * `dropped`: why the request left unserved (`rejected`, `shed`, `unservable`, `timed_out`,
   * `drained`).
   */
  readonly reason?: string;
}

/**
 * Custom metrics any policy may report: called once when the run ends. Each entry appears in
 * the result's `custom_metrics` under the policy's name. Values must be finite numbers.
 */
export interface ReportsMetrics {
  metrics?(): Readonly<Record<string, number>>;
}

export interface RoutingPolicy extends ReportsMetrics {
  readonly name: string;
  route(request: RequestView, state: RouterState): RoutingDecision;
  /** Optional hook after the request completes on `instance` (session tables, LRU indexes). */
  onComplete?(request: RequestView, instance: number): void;
  /** Optional hook for every arrival, routing, completion and drop, so a stateful router can learn. */
  onEvent?(event: RouterEvent): void;
}

/** A P/D decider's answer for one request. */
export interface DisaggregationDecision {
  /** True: prefill on a prefill pod, KV transfer, decode on the chosen decode pod. */
  readonly disaggregate: boolean;
  /** Short machine-readable reason, recorded in decision traces. */
  readonly reason: string;
  /**
   * Another decode pod for this request, as a position in `state.instances` (the decode pool);
   * absent keeps the one the decode router chose. Built-in deciders never set it.
   */
  readonly decodeInstance?: number;
}

/**
 * Decides, per request, whether to split it into a prefill part and a decode part (P/D
 * disaggregation). Called after the decode router has chosen a decode pod (llm-d's decode-first
 * order): `state.instances` is the decode pool and `selected` the chosen pod's position in it.
 */
export interface DisaggregationDecider extends ReportsMetrics {
  readonly name: string;
  decide(request: RequestView, state: RouterState, selected: number): DisaggregationDecision;
}

/**
 * Decides, per request, whether it goes through the encode stage of E/P/D disaggregation (an
 * encode pod is chosen for its multimodal inputs) before prefill and decode. Called after the
 * decode pod is chosen (`decodeInstance`, its instance index) and the P/D decider has decided, as
 * BLIS and llm-d do. Only input-side facts may be read: the request's output is unknown.
 */
export interface EncodeDecider extends ReportsMetrics {
  readonly name: string;
  shouldEncode(request: RequestView, decodeInstance: number): boolean;
}

/**
 * Orders an instance's wait queue. `compare` < 0 puts `a` first. Schedulers without
 * `compare` keep arrival order (fcfs), which lets the engine skip sorting entirely.
 */
export interface InstanceScheduler extends ReportsMetrics {
  readonly name: string;
  compare?(a: SchedulerEntry, b: SchedulerEntry, ctx: SchedulerContext): number;
}

/** How the engine picks a preemption victim among running requests. */
export type PreemptionPolicyName = 'fcfs' | 'priority';

export interface ScaleDecision {
  /**
   * Desired change in this group's replicas (negative scales down, 0 holds). The cluster clamps
   * the result to `[minReplicas, maxReplicas]` and applies stabilization windows and cooldown.
   */
  readonly delta: number;
  readonly reason: string;
  /** What the policy computed on the way (supply, demand, ...), for decision traces. */
  readonly signals?: Readonly<Record<string, number>>;
}

/**
 * Decides, every autoscaler interval, how many replicas a scaling group should gain or lose.
 * One object per scaling group (under P/D, one per pool), so it may keep state.
 */
export interface AutoScalePolicy extends ReportsMetrics {
  readonly name: string;
  evaluate(ctx: AutoScaleContext): ScaleDecision;
}

/** Helpers a policy factory receives: its parameters and a private random stream. */
export interface PolicyFactoryContext {
  readonly numInstances: number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly random: RandomSource;
  readonly blockSizeTokens: number;
}

export type AdmissionFactory = (ctx: PolicyFactoryContext) => AdmissionPolicy;
export type PriorityFactory = (ctx: PolicyFactoryContext) => PriorityPolicy;
export type RoutingFactory = (ctx: PolicyFactoryContext) => RoutingPolicy;
export type SchedulerFactory = (ctx: PolicyFactoryContext) => InstanceScheduler;
export type ScorerFactory = (ctx: PolicyFactoryContext) => Scorer;
export type AutoScaleFactory = (ctx: PolicyFactoryContext) => AutoScalePolicy;
export type DeciderFactory = (ctx: PolicyFactoryContext) => DisaggregationDecider;

/** The shape a custom policy module's default export takes (`--routing-policy ./p.mjs`). */
export type PolicyModuleFactory =
  | AdmissionFactory
  | PriorityFactory
  | RoutingFactory
  | SchedulerFactory
  | ScorerFactory
  | DeciderFactory
  | AutoScaleFactory;

export type { InstanceSnapshot };
