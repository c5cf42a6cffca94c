import type { SimRequest } from '@blis/engine';
import { type FlowFairness, sortedTenants } from './flow-fairness.js';

/** One request waiting at the gateway. */
export interface Waiting {
  readonly req: SimRequest;
  /** Enqueue order over the whole run (FCFS and the tie-breaks). */
  readonly seq: number;
  readonly enqueuedUs: number;
  /** Its band: the SLO class's priority (negative = sheddable). */
  readonly priority: number;
  readonly tenant: string;
  /** Absolute deadline for slo-deadline order; Infinity without a target. */
  readonly deadlineUs: number;
}

interface Band {
  readonly priority: number;
  readonly flows: Map<string, Waiting[]>;
  size: number;
}

export type EnqueueOutcome = { kind: 'enqueued' } | { kind: 'rejected'; why: 'band-full' | 'queue-full' } | { kind: 'displaced'; victim: Waiting };

export interface GatewayBandsOptions {
  /** Requests held at most over all bands; 0 = unbounded. */
  maxDepth: number;
  /** Requests held at most per band; 0 = unbounded. */
  perBandCapacity: number;
  /** With a full queue, displace the least urgent sheddable request (BLIS's --queue-shedding). */
  shedding: boolean;
  /** Band ceilings fall linearly from 1 (highest band) to this (lowest); 1 = no head-of-line gating. */
  usageLimitThreshold: number;
  /** Within a flow, earliest deadline first instead of arrival order. */
  sloDeadline: boolean;
  fairness: FlowFairness;
}

/**
 * The gateway's queues, as GIE lays them out: priority bands (highest first, created as classes
 * appear and kept), each holding one FIFO per tenant. Capacity is checked per band, then overall.
 */
export class GatewayBands {
  private readonly bands: Band[] = [];
  private readonly byIndex = new Map<number, Waiting>();
  private total = 0;
  private readonly opt: GatewayBandsOptions;

  constructor(opt: GatewayBandsOptions) {
    this.opt = opt;
  }

  get length(): number {
    return this.total;
  }

  /** Requests in the band of `priority` (0 when it has none). */
  bandLength(priority: number): number {
    return this.bands.find((b) => b.priority === priority)?.size ?? 0;
  }

  /** The bands' priorities, highest first, with their lengths. */
  bandLengths(): { priority: number; length: number }[] {
    return this.bands.map((b) => ({ priority: b.priority, length: b.size }));
  }

  enqueue(w: Waiting): EnqueueOutcome {
    const band = this.band(w.priority);
    // Within a band every entry shares the newcomer's priority and came earlier: none can be displaced.
    if (this.opt.perBandCapacity > 0 && band.size >= this.opt.perBandCapacity) return { kind: 'rejected', why: 'band-full' };
    let victim: Waiting | undefined;
    if (this.opt.maxDepth > 0 && this.total >= this.opt.maxDepth) {
      if (!this.opt.shedding) return { kind: 'rejected', why: 'queue-full' };
      victim = this.shedVictim(w);
      if (victim === undefined) return { kind: 'rejected', why: 'queue-full' };
      this.remove(victim);
    }
    let flow = band.flows.get(w.tenant);
    if (flow === undefined) {
      flow = [];
      band.flows.set(w.tenant, flow);
    }
    flow.push(w);
    band.size++;
    this.total++;
    this.byIndex.set(w.req.spec.index, w);
    return victim === undefined ? { kind: 'enqueued' } : { kind: 'displaced', victim };
  }

  /**
   * The next request to dispatch at pool saturation `saturation`, or undefined. Bands are visited
   * highest first; band i of n may dispatch only while saturation is below its ceiling (1 for the
   * highest, falling to the usage-limit threshold for the lowest), and the first band over its
   * ceiling stops the cycle, empty or not, so lower work never overtakes (GIE's HoL blocking).
   */
  dequeue(saturation: number, limit = 1): Waiting | undefined {
    if (this.total === 0) return undefined;
    const n = this.bands.length;
    const u = this.opt.usageLimitThreshold;
    for (let i = 0; i < n; i++) {
      const ceiling = limit * (n > 1 ? 1 - (i * (1 - u)) / (n - 1) : 1);
      if (saturation >= ceiling) return undefined;
      const band = this.bands[i];
      if (band.size === 0) continue;
      const tenant = this.opt.fairness.pick(band)!;
      const flow = band.flows.get(tenant)!;
      const w = this.opt.sloDeadline ? earliestDeadline(flow) : flow[0];
      this.remove(w);
      return w;
    }
    return undefined;
  }

  /** Takes out the request of this index (TTL expiry); undefined when it is no longer waiting. */
  take(index: number): Waiting | undefined {
    const w = this.byIndex.get(index);
    if (w !== undefined) this.remove(w);
    return w;
  }

  /** True when a non-sheddable (priority >= 0) request waits. */
  hasNonSheddable(): boolean {
    for (const b of this.bands) if (b.priority >= 0 && b.size > 0) return true;
    return false;
  }

  forEach(fn: (w: Waiting) => void): void {
    for (const b of this.bands) for (const t of sortedTenants(b.flows)) for (const w of b.flows.get(t)!) fn(w);
  }

  private band(priority: number): Band {
    let i = 0;
    while (i < this.bands.length && this.bands[i].priority > priority) i++;
    if (i < this.bands.length && this.bands[i].priority === priority) return this.bands[i];
    const b: Band = { priority, flows: new Map(), size: 0 };
    this.bands.splice(i, 0, b);
    return b;
  }

  /**
   * The least urgent sheddable request (lowest priority, then latest), if the newcomer outranks
   * it. BLIS's extra (--queue-shedding): GIE rejects the newcomer of a full queue.
   */
  private shedVictim(incoming: Waiting): Waiting | undefined {
    let best: Waiting | undefined;
    for (const b of this.bands) {
      if (b.priority >= 0) continue;
      for (const t of sortedTenants(b.flows))
        for (const w of b.flows.get(t)!) if (best === undefined || w.priority < best.priority || (w.priority === best.priority && w.seq > best.seq)) best = w;
    }
    if (best === undefined) return undefined;
    return incoming.priority > best.priority || (incoming.priority === best.priority && incoming.seq < best.seq) ? best : undefined;
  }

  private remove(w: Waiting): void {
    const band = this.bands.find((b) => b.priority === w.priority)!;
    const flow = band.flows.get(w.tenant)!;
    flow.splice(flow.indexOf(w), 1);
    if (flow.length === 0) band.flows.delete(w.tenant);
    band.size--;
    this.total--;
    this.byIndex.delete(w.req.spec.index);
  }
}

/** Earliest deadline in the flow, ties to the earlier arrival. */
function earliestDeadline(flow: readonly Waiting[]): Waiting {
  let best = flow[0];
  for (let i = 1; i < flow.length; i++) {
    const w = flow[i];
    if (w.deadlineUs < best.deadlineUs || (w.deadlineUs === best.deadlineUs && w.seq < best.seq)) best = w;
  }
  return best;
}
