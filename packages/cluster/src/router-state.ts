import type { RouterState, TenantState } from '@blis/policies';
import type { LiveSnapshot } from './instance-snapshot.js';

/**
 * Sliding one-second window over arrival ticks: a rate without per-request allocation. The ticks
 * sit in a Float64Array because an array of numbers starts as small integers to V8 and changes
 * its elements to doubles (deoptimising its readers) when a run passes 2^31 µs.
 */
class RateWindow {
  private times = new Float64Array(64);
  private head = 0;
  private tail = 0;
  add(now: number): void {
    if (this.tail === this.times.length) this.makeRoom();
    this.times[this.tail++] = now;
  }
  rate(now: number, windowUs = 1_000_000): number {
    while (this.head < this.tail && this.times[this.head] <= now - windowUs) this.head++;
    return ((this.tail - this.head) * 1_000_000) / windowUs;
  }
  /** Moves the live ticks to the front, doubling the array when they fill more than half of it. */
  private makeRoom(): void {
    const live = this.tail - this.head;
    if (live * 2 > this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times.subarray(this.head, this.tail));
      this.times = grown;
    } else this.times.copyWithin(0, this.head, this.tail);
    this.head = 0;
    this.tail = live;
  }
}

class MutableTenant implements TenantState {
  readonly tenantId: string;
  requests = 0;
  inFlight = 0;
  recentRate = 0;
  readonly window = new RateWindow();
  constructor(id: string) {
    this.tenantId = id;
  }
}

/**
 * The router's own bookkeeping (synchronous: in-flight counts, tenant counters, rates) plus the
 * instance snapshots. One object for the whole run, updated in place.
 */
export class ClusterRouterState implements RouterState {
  nowUs = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine), as are the times below
  readonly instances: readonly LiveSnapshot[];
  globalInFlight = 0;
  recentRate = 0;
  saturation = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  /** With an instance lifecycle: the routable instances, the only ones saturation counts. */
  routable: readonly number[] | undefined;
  private readonly tenants = new Map<string, MutableTenant>();
  private readonly window = new RateWindow();
  private readonly refreshIntervalUs: number;
  /**
   * BLIS starts every instance's refresh clock at 0, so the first refresh comes at the first
   * routing at or after one interval, and the refresh grid runs from there.
   */
  private lastRefresh = -0;
  private readonly queueThreshold: number;
  private readonly kvThreshold: number;
  private readonly cacheDelayUs: number;
  /** BLIS takes the first cache view when the cluster is built (empty caches) and counts from 0. */
  private lastCacheRefresh = -0;

  constructor(instances: LiveSnapshot[], refreshIntervalUs: number, queueThreshold = 5, kvThreshold = 0.8, cacheDelayUs = 0) {
    this.instances = instances;
    this.refreshIntervalUs = refreshIntervalUs;
    this.cacheDelayUs = cacheDelayUs;
    this.queueThreshold = queueThreshold;
    this.kvThreshold = kvThreshold;
  }

  /** True when the instance signals were read at `now` (or are always live). */
  freshAt(now: number): boolean {
    return this.refreshIntervalUs <= 0 || this.lastRefresh === now;
  }

  tenant(tenantId: string): TenantState {
    return this.tenantRecord(tenantId);
  }

  /** Brings the view up to `now`: instance signals per the refresh interval, rates, saturation. */
  prepare(now: number, forceFresh = false): void {
    this.nowUs = now;
    if (forceFresh || this.refreshIntervalUs <= 0 || now - this.lastRefresh >= this.refreshIntervalUs) {
      for (const s of this.instances) s.refresh(now);
      this.lastRefresh = now;
    }
    if (this.cacheDelayUs > 0 && now - this.lastCacheRefresh >= this.cacheDelayUs) {
      for (const s of this.instances) s.refreshPrefixSignal();
      this.lastCacheRefresh = now;
    }
    this.recentRate = this.window.rate(now);
    this.saturation = this.computeSaturation();
  }

  /**
   * Mean over instances of max(queueDepth / qThreshold, kvUtil / kvThreshold). Requests routed
   * but still in their alpha queueing delay count as queued: the instance has accepted them.
   */
  computeSaturation(): number {
    const members = this.routable;
    if (members !== undefined) {
      let sum = 0;
      for (const i of members) sum += this.pressure(this.instances[i]);
      return members.length === 0 ? 0 : sum / members.length;
    }
    const n = this.instances.length;
    if (n === 0) return 0;
    let sum = 0;
    for (const s of this.instances) sum += this.pressure(s);
    return sum / n;
  }

  private pressure(s: LiveSnapshot): number {
    const waiting = Math.max(s.queueDepth, s.inFlightRequests - s.batchSize);
    return Math.max(waiting / this.queueThreshold, s.kvUtilization / this.kvThreshold);
  }

  recordArrival(tenantId: string, now: number): void {
    const t = this.tenantRecord(tenantId);
    t.requests++;
    t.window.add(now);
    t.recentRate = t.window.rate(now);
    this.window.add(now);
  }

  dispatched(instance: number, tenantId: string): void {
    (this.instances[instance] as { inFlightRequests: number }).inFlightRequests++;
    this.globalInFlight++;
    this.tenantRecord(tenantId).inFlight++;
  }

  finished(instance: number, tenantId: string): void {
    (this.instances[instance] as { inFlightRequests: number }).inFlightRequests--;
    this.globalInFlight--;
    this.tenantRecord(tenantId).inFlight--;
  }

  private tenantRecord(id: string): MutableTenant {
    let t = this.tenants.get(id);
    if (t === undefined) {
      t = new MutableTenant(id);
      this.tenants.set(id, t);
    }
    return t;
  }
}
