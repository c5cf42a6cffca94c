import type { InstanceSnapshot, RouterState, TenantState } from '@blis/policies';
import type { ClusterRouterState } from '../router-state.js';

/**
 * One pool as a routing policy sees it: the cluster's router state restricted to the pool's
 * instances. A policy's answer is a position in `instances`; {@link members} maps it back to the
 * instance index.
 */
export class PoolView implements RouterState {
  private snapshots: readonly InstanceSnapshot[];
  private indices: readonly number[];
  private readonly base: ClusterRouterState;

  constructor(base: ClusterRouterState, members: readonly number[]) {
    this.base = base;
    this.indices = members;
    this.snapshots = members.map((i) => base.instances[i]);
  }

  get instances(): readonly InstanceSnapshot[] {
    return this.snapshots;
  }

  /** Instance index of each position in {@link instances}. */
  get members(): readonly number[] {
    return this.indices;
  }

  /** The pool changed (replicas became routable or stopped being so). */
  setMembers(members: readonly number[]): void {
    this.indices = members;
    this.snapshots = members.map((i) => this.base.instances[i]);
  }

  get nowUs(): number {
    return this.base.nowUs;
  }
  get globalInFlight(): number {
    return this.base.globalInFlight;
  }
  get recentRate(): number {
    return this.base.recentRate;
  }
  get saturation(): number {
    return this.base.saturation;
  }
  tenant(tenantId: string): TenantState {
    return this.base.tenant(tenantId);
  }
}
