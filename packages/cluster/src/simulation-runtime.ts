import type { RequestSource } from '@blis/engine';
import type { LatencyModel } from '@blis/latency';
import type {
  AdmissionPolicy,
  AutoScalePolicy,
  CallWatch,
  DisaggregationDecider,
  EncodeDecider,
  InstanceScheduler,
  PolicyKind,
  PolicyRegistry,
  PoolType,
  PostHocSaturationDetector,
  PriorityPolicy,
  RoutingPolicy,
  SaturationDetector,
} from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import type { MemoryLimit } from './limits/memory-limit.js';
import type { RunLimitError } from './limits/run-limit-error.js';
import type { PreparePhase } from './workload-source.js';

/** Things a library caller can hand to {@link simulate} that are not plain data. */
export interface SimulationRuntime {
  /** Use this request stream instead of `config.workload`. */
  source?: RequestSource;
  /** Use this latency model instead of resolving `config.model`. */
  latency?: LatencyModel;
  /**
   * Run the reference engine: every running request advanced every step, none in bulk. Same
   * results, slower: the oracle of the bulk engine's differential tests.
   */
  stepByStep?: boolean;
  /** Policy objects that replace the named ones (custom policies). */
  admission?: AdmissionPolicy;
  priority?: PriorityPolicy;
  routing?: RoutingPolicy;
  /** A saturation detector that replaces `config.flowControl.saturationDetector` (custom detectors). */
  saturationDetector?: SaturationDetector;
  /** A P/D decider object that replaces `config.pd.decider` (custom deciders). */
  decider?: DisaggregationDecider;
  /** An E/P/D encode decider object that replaces `config.pd.encodeDecider` (used only with `pd.encodeInstances` > 0). */
  encodeDecider?: EncodeDecider;
  /** An autoscaler per scaling group (`monolithic`, or the P/D pool) replacing `config.autoscaling.policy`. */
  autoscaler?: (pool: PoolType) => AutoScalePolicy;
  /** One scheduler per instance (schedulers may keep per-instance state). */
  scheduler?: (instanceIndex: number) => InstanceScheduler;
  /** Registry to resolve policy names in (default: the built-in catalogue). */
  registry?: PolicyRegistry;
  /** Decision-trace observer (the CLI wires `@blis/trace`'s recorder here). */
  observer?: DecisionObserver;
  onProgress?: (done: number, nowUs: number) => void;
  /**
   * Check every policy, built-in ones included: read-only views of what they are handed (the
   * first write stops the run), answers within the contract. Slow; for tests and development.
   * The policy objects given here are always checked (without read-only views unless this is on).
   */
  checkPolicies?: boolean;
  /** Wall-clock budget, in ms, of each call of a policy object given here (default: none). */
  policyBudgetMs?: number;
  /** Where each kind's policy object came from (a module path), named in its errors. */
  policySources?: Partial<Record<PolicyKind, string>>;
  /**
   * Told when each call of a policy object given here starts and ends, so that a watchdog
   * outside the run can stop a call that never returns and name it (see `GuardOptions.watch`).
   */
  policyWatch?: CallWatch;
  /**
   * Refuse (a {@link RunLimitError}) a run whose memory estimate exceeds `bytes`; `what` says
   * whose memory that is, in the message. The CLI passes the machine's; unset = no check.
   */
  memoryLimit?: MemoryLimit;
  /** Told before each step of preparing the run that may take long on a large input (reading a spec, building instances). */
  onPhase?: (phase: PreparePhase) => void;
  /**
   * Post-hoc saturation detectors of one's own, one factory each (a fresh detector per replay):
   * with `config.saturationAnalysis` they replay the run after the built-in ones named there.
   */
  saturationDetectors?: readonly (() => PostHocSaturationDetector)[];
}
