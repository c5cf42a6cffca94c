/** The per-tenant queues of one priority band, as a fairness policy sees them. */
export interface BandFlows<T> {
  readonly priority: number;
  /** Tenant -> its non-empty queue (a flow is removed when it empties). */
  readonly flows: ReadonlyMap<string, readonly T[]>;
}

/** Picks which tenant's queue of a band dispatches next (GIE's inter-flow policy). */
export interface FlowFairness {
  pick<T extends { seq: number }>(band: BandFlows<T>): string | undefined;
}

/** Tenant ids in byte order, so that no map's insertion order reaches the result. */
export function sortedTenants(flows: ReadonlyMap<string, unknown>): string[] {
  return [...flows.keys()].sort();
}

/** GIE's global-strict: the tenant whose head request came first (stateless). */
export function globalStrict(): FlowFairness {
  return {
    pick(band) {
      let best: string | undefined;
      let bestSeq = Number.POSITIVE_INFINITY;
      for (const t of sortedTenants(band.flows)) {
        const q = band.flows.get(t)!;
        if (q.length > 0 && q[0].seq < bestSeq) {
          best = t;
          bestSeq = q[0].seq;
        }
      }
      return best;
    },
  };
}

/**
 * GIE's round-robin: tenants in sorted order, starting after the one picked last in this band.
 * A tenant whose queue emptied has left the band, and the cycle then restarts from the first.
 */
export function roundRobin(): FlowFairness {
  const cursors = new Map<number, string>();
  return {
    pick(band) {
      const keys = sortedTenants(band.flows);
      if (keys.length === 0) return undefined;
      const last = cursors.get(band.priority);
      let start = 0;
      if (last !== undefined) {
        const at = keys.indexOf(last);
        if (at >= 0) start = (at + 1) % keys.length;
      }
      for (let i = 0; i < keys.length; i++) {
        const k = keys[(start + i) % keys.length];
        if (band.flows.get(k)!.length > 0) {
          cursors.set(band.priority, k);
          return k;
        }
      }
      cursors.delete(band.priority);
      return undefined;
    },
  };
}
