import type { InstanceConfig, RequestSource } from '@blis/engine';
import type { AdmissionPolicy, PriorityPolicy, RoutingPolicy } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import type { LifecycleSetup } from './autoscale/lifecycle-setup.js';
import type { PdSetup } from './pd/pd-coordinator.js';
import type { FlowControlSettings } from './flow-control/flow-control-settings.js';
import type { GoodputRecorder } from './goodput/goodput-recorder.js';

export type { FlowControlSettings };

export interface ClusterSetup {
  instances: InstanceConfig[];
  source: RequestSource;
  admission: AdmissionPolicy;
  priority: PriorityPolicy;
  routing: RoutingPolicy;
  admissionLatencyUs: number;
  routingLatencyUs: number;
  snapshotRefreshIntervalUs: number;
  /** µs the router's view of prefix caches lags (0 or unset = live). */
  cacheSignalDelayUs?: number;
  flowControl?: FlowControlSettings;
  /**
   * Saturation thresholds for `RouterState.saturation` when flow control is off (admission
   * policies such as slo-shed read it too); with flow control on, its own thresholds apply.
   */
  saturation?: { queueDepthThreshold: number; kvUtilizationThreshold: number };
  horizonUs: number;
  observer?: DecisionObserver;
  /** Keep each completed request's id for per-request records. */
  recordRequestIds?: boolean;
  /** Prefill/decode disaggregation; absent = every instance serves whole requests. */
  pd?: PdSetup;
  /** Called now and then with the number of requests that have left the system. */
  onProgress?: (done: number, nowUs: number) => void;
  /** Replica lifecycle, node pools and the autoscaler; absent = fixed instances, always active. */
  lifecycle?: LifecycleSetup;
  /** Sample per-instance signals on a grid of simulated time; absent = no time series. */
  timeseries?: { intervalUs: number; maxSamples: number };
  /** Records what goodput needs, when some SLO class is gated; absent = no goodput. */
  goodput?: GoodputRecorder;
}

export interface ClusterCounters {
  injected: number;
  rejected: number;
  /** Turned away or displaced by the flow-control gateway. */
  shed: number;
  /** Expired in the gateway queue (its TTL). */
  expired: number;
  /** Evicted from an instance by flow control. */
  evicted: number;
  completed: number;
  dropped: number;
  timedOut: number;
  /** Admitted but not yet routed at the end (admission/routing latency, gateway queue). */
  inTransit: number;
  /** Requests discarded by an `immediate` drain (INV-1's drained bucket). */
  drainedDropped: number;
  /** Queued requests a `redirect` drain sent back through admission (not an outcome). */
  redirected: number;
  /** E/P/D: rejected at the encode stage, no encode pod being routable (INV-1's encode bucket). */
  encodeRejected: number;
}
