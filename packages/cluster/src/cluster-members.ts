import type { GrowableFloat64 } from '@blis/engine/internal';
import type { InstanceSimulator } from '@blis/engine';
import type { Autoscaler } from './autoscale/autoscaler.js';
import type { Fleet } from './autoscale/fleet.js';
import type { ClusterCounters } from './cluster-setup.js';
import type { CompletionLog, Interner, SessionStats } from './completion-log.js';
import type { FlowController } from './flow-control/flow-controller.js';
import type { LiveSnapshot } from './instance-snapshot.js';
import type { PdCoordinator } from './pd/pd-coordinator.js';
import type { LeftRequest } from './request-outcomes.js';
import type { ClusterRouterState } from './router-state.js';

/**
 * The cluster simulator's members that its parts (request exits, the sub-systems' hosts, instance
 * wiring) read and update: the simulator itself is handed over, typed as this so that those
 * modules and the simulator's do not import each other. The sub-systems are read when used, as
 * they are built after the instances.
 */
export interface ClusterMembers {
  readonly instances: InstanceSimulator[];
  readonly snapshots: LiveSnapshot[];
  readonly state: ClusterRouterState;
  readonly counters: ClusterCounters;
  readonly log: CompletionLog;
  readonly sloNames: Interner;
  readonly tenantNames: Interner;
  readonly left: LeftRequest[] | undefined;
  readonly gatewayDelayUs: GrowableFloat64;
  readonly sessions: Map<string, SessionStats>;
  readonly routedTo: number[];
  readonly pd: PdCoordinator | undefined;
  readonly fleet: Fleet | undefined;
  readonly autoscaler: Autoscaler | undefined;
  readonly flow: FlowController | undefined;
}
