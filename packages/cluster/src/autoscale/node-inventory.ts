import type { DelaySettings, NodePoolConfig } from './autoscale-schema.js';

/** A node of a pool: GPUs that replicas are placed on. */
export interface PoolNode {
  readonly id: string;
  readonly pool: PoolState;
  /** Provisioning until `readyUs`; terminated nodes are gone. */
  state: 'provisioning' | 'ready' | 'terminated';
  readyUs: number;
  gpus: number;
  freeGpus: number;
  /** Replicas placed here (including those waiting for it to be ready). */
  replicas: number;
}

export interface PoolState {
  readonly config: NodePoolConfig;
  readonly nodes: PoolNode[];
  /** Nodes not terminated (ready or provisioning). */
  live: number;
  /** True for the implicit pool: a node per replica, sized to it. */
  readonly implicit: boolean;
}

/** What a placement found: a node now, a node that will be ready later, or nothing. */
export type Placement = { node: PoolNode; readyUs: number } | undefined;

/**
 * The GPU inventory: node pools, first-fit placement and node provisioning. BLIS validates
 * `provisioning_delay` and `max_nodes` but never provisions; here a replica that finds no free
 * GPUs asks the first matching pool that may still grow for a node, ready after its delay.
 */
export class NodeInventory {
  readonly pools: PoolState[];
  nodesProvisioned = 0;
  private seq = 0;
  private readonly sampleDelay: (d: DelaySettings) => number;

  /**
   * `implicit` replaces `pools` when none are configured; `implicitInitial` then gives the GPUs
   * of each ready node it starts with (one per startup replica).
   */
  constructor(pools: readonly NodePoolConfig[], implicit: NodePoolConfig | undefined, sampleDelay: (d: DelaySettings) => number, implicitInitial: readonly number[] = []) {
    this.sampleDelay = sampleDelay;
    const configs = implicit !== undefined ? [implicit] : pools;
    this.pools = configs.map((config) => ({ config, nodes: [], live: 0, implicit: implicit !== undefined }));
    for (const p of this.pools) {
      if (p.implicit) for (const gpus of implicitInitial) this.addNode(p, gpus, 0, 0);
      else for (let i = 0; i < p.config.initialNodes; i++) this.addNode(p, p.config.gpusPerNode, 0, 0);
    }
  }

  /** Pools a replica on `gpuType` may use, in configuration order ('' matches any). */
  private matching(gpuType: string): PoolState[] {
    const want = gpuType.toLowerCase();
    return this.pools.filter((p) => p.implicit || want === '' || p.config.gpuType.toLowerCase() === want);
  }

  /** The cost per hour of a replica placed on `gpuType` (the first matching pool's). */
  costPerHour(gpuType: string): number {
    return this.matching(gpuType)[0]?.config.costPerHour ?? 0;
  }

  /**
   * First fit: pools in order, nodes in creation order (ready first, then provisioning ones,
   * which a replica may wait for); else a new node from the first pool that may grow.
   */
  place(gpuType: string, gpus: number, now: number): Placement {
    const pools = this.matching(gpuType);
    for (const state of ['ready', 'provisioning'] as const)
      for (const p of pools)
        for (const n of p.nodes)
          if (n.state === state && n.freeGpus >= gpus) return this.claim(n, gpus);
    for (const p of pools) {
      const size = p.implicit ? gpus : p.config.gpusPerNode;
      if (p.live < p.config.maxNodes && size >= gpus) {
        const node = this.addNode(p, size, now, Math.max(0, this.sampleDelay(p.config.provisioningDelay)));
        this.nodesProvisioned++;
        return this.claim(node, gpus);
      }
    }
    return undefined;
  }

  /** A replica left `node`: its GPUs are free; an empty node above the pool's minimum is released. */
  release(node: PoolNode, gpus: number): void {
    node.freeGpus += gpus;
    node.replicas--;
    const p = node.pool;
    if (node.replicas === 0 && p.live > p.config.minNodes) {
      node.state = 'terminated';
      p.live--;
    }
  }

  /** Nodes whose provisioning ends at `now` become ready. */
  markReady(now: number): void {
    for (const p of this.pools) for (const n of p.nodes) if (n.state === 'provisioning' && n.readyUs <= now) n.state = 'ready';
  }

  private claim(node: PoolNode, gpus: number): Placement {
    node.freeGpus -= gpus;
    node.replicas++;
    return { node, readyUs: node.readyUs };
  }

  private addNode(p: PoolState, gpus: number, now: number, delayUs: number): PoolNode {
    const node: PoolNode = { id: `${p.config.name}-node-${this.seq++}`, pool: p, state: delayUs <= 0 ? 'ready' : 'provisioning', readyUs: now + delayUs, gpus, freeGpus: gpus, replicas: 0 };
    p.nodes.push(node);
    p.live++;
    return node;
  }
}
