import type { InstanceSimulator } from '@blis/engine';
import type { PrefixSignal } from '@blis/kvcache';
import type { InstanceSnapshot, KVCacheView, PoolType } from '@blis/policies';

/**
 * One instance as the router sees it. The object is created once per instance and refreshed in
 * place, so routing never allocates; `kv` is a live read-only window on the real cache (no map
 * is ever copied). Load signals are re-read only when the refresh interval allows (INV-7).
 */
export class LiveSnapshot implements InstanceSnapshot {
  readonly index: number;
  readonly id: string;
  readonly pool: PoolType;
  queueDepth = 0;
  batchSize = 0;
  kvUtilization = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  freeKVBlocks = 0;
  readonly totalKVBlocks: number;
  cacheHitRate = 0;
  inFlightRequests = 0;
  /** The view starts as the empty instance at t = 0, which BLIS's router also starts from. */
  snapshotTimeUs = -0; // a double from the start, as kvUtilization
  readonly kv: KVCacheView;
  /** Adapters resident at the last refresh; declared only when the instance serves LoRA adapters. */
  declare residentAdapters?: ReadonlySet<string>;
  // A `#` field, not a TS `private` one: a policy holding this snapshot must not be able to walk
  // to the instance and from there to requests' output lengths (INV-9) or mutate it.
  readonly #instance: InstanceSimulator;
  /** The router's delayed knowledge of the prefix cache, when signals are not live. */
  readonly #signal: PrefixSignal | undefined;

  constructor(instance: InstanceSimulator, signal?: PrefixSignal, pool: PoolType = 'monolithic') {
    this.#instance = instance;
    this.pool = pool;
    this.#signal = signal;
    this.index = instance.config.index;
    this.id = instance.config.id;
    this.totalKVBlocks = instance.kv.totalBlocks;
    this.freeKVBlocks = instance.kv.freeBlocks;
    if (instance.lora !== undefined) this.residentAdapters = new Set();
    const cache = instance.kv;
    this.kv = {
      get totalBlocks() {
        return cache.totalBlocks;
      },
      get usedBlocks() {
        return cache.usedBlocks;
      },
      get freeBlocks() {
        return cache.freeBlocks;
      },
      get blockSizeTokens() {
        return cache.blockSizeTokens;
      },
      cachedPrefixBlocks: signal !== undefined ? (hashes: ArrayLike<number>) => signal.cachedPrefixBlocks(hashes) : (hashes: ArrayLike<number>) => cache.cachedPrefixBlocks(hashes),
    };
  }

  /** Brings the delayed prefix-cache view up to the cache's present contents. */
  refreshPrefixSignal(): void {
    this.#signal?.refresh();
  }

  /** Re-reads the instance-reported signals. */
  refresh(now: number): void {
    const inst = this.#instance;
    this.queueDepth = inst.queueDepth;
    this.batchSize = inst.batchSize;
    this.kvUtilization = inst.kv.utilization;
    this.freeKVBlocks = inst.kv.freeBlocks;
    this.cacheHitRate = inst.kv.cacheHitRate;
    // BLIS refreshes the resident adapter set on the load signals' schedule.
    const lora = inst.lora;
    if (lora !== undefined) this.residentAdapters = new Set(lora.resident.ids().map((a) => lora.idOf(a)));
    this.snapshotTimeUs = now;
  }
}
