import { AdapterCost } from './adapter-cost.js';
import type { LoraSettings } from './lora-settings.js';
import { ResidentSet } from './resident-set.js';

/**
 * One instance's LoRA state: its resident adapters, the load in flight (loads are serialised per
 * instance: one copy engine), and per-adapter counters. Adapters are registry indices; a
 * request without an adapter is -1 and never touches any of this.
 */
export class InstanceLora {
  readonly settings: LoraSettings;
  readonly cost: AdapterCost;
  readonly resident: ResidentSet;
  /** The adapter being loaded, or -1. */
  loading = -1;
  /** Cold loads completed, per adapter. */
  readonly loads: Float64Array;
  /** Evictions, per adapter. */
  readonly evictions: Float64Array;
  private readonly index = new Map<string, number>();
  private readonly ranks: Int32Array;
  /** Scratch for {@link scaleStep}: the step in which an adapter was last counted. */
  private readonly seenAt: Float64Array;
  private stamp = 0;

  constructor(settings: LoraSettings) {
    this.settings = settings;
    this.cost = new AdapterCost(settings);
    this.resident = new ResidentSet(settings.capacity);
    const n = settings.adapters.length;
    this.loads = new Float64Array(n);
    this.evictions = new Float64Array(n);
    this.ranks = new Int32Array(n);
    this.seenAt = new Float64Array(n);
    settings.adapters.forEach((a, i) => {
      this.index.set(a.id, i);
      this.ranks[i] = a.rank;
    });
  }

  /** The registry index of an adapter id; -1 for none ('' or absent) or an id not declared. */
  indexOf(id: string | undefined): number {
    if (id === undefined || id === '') return -1;
    return this.index.get(id) ?? -1;
  }

  idOf(adapter: number): string {
    return this.settings.adapters[adapter].id;
  }

  rankOf(adapter: number): number {
    return this.ranks[adapter];
  }

  isResident(adapter: number): boolean {
    return this.resident.has(adapter);
  }

  /**
   * Starts the load of a cold `adapter` unless one is in flight or every slot is pinned: a slot
   * is freed now (the LRU unpinned adapter is evicted) and the load takes the returned µs.
   * Returns -1 when no load starts.
   */
  startLoad(adapter: number): number {
    if (this.loading >= 0 || this.resident.has(adapter)) return -1;
    if (this.resident.full) {
      const victim = this.resident.evictLRU();
      if (victim < 0) return -1;
      this.evictions[victim]++;
    }
    this.loading = adapter;
    return this.cost.loadTicks(this.ranks[adapter]);
  }

  /** The load in flight is done: its adapter is resident (the slot was freed at its start). */
  completeLoad(): void {
    const a = this.loading;
    if (a < 0) return;
    if (this.resident.add(a)) this.loads[a]++;
    this.loading = -1;
  }

  /**
   * Scales a step's time by the compute factor of the distinct adapters among `count` requests
   * that `adapterAt` lists (-1 = none), by the tier of their largest rank.
   */
  scaleStep(baseUs: number, count: number, adapterAt: (i: number) => number): number {
    const stamp = ++this.stamp;
    let distinct = 0;
    let maxRank = 0;
    for (let i = 0; i < count; i++) {
      const a = adapterAt(i);
      if (a < 0 || this.seenAt[a] === stamp) continue;
      this.seenAt[a] = stamp;
      distinct++;
      if (this.ranks[a] > maxRank) maxRank = this.ranks[a];
    }
    return distinct === 0 ? baseUs : this.cost.scaleStep(baseUs, distinct, maxRank);
  }
}
