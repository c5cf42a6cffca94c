import type { LoraSettings, StepOverheadTier } from './lora-settings.js';

/**
 * The three costs of serving adapters: a cold load's latency, the per-step compute factor of a
 * batch that runs adapters, and the HBM the adapter slots take from the KV budget. Pure
 * functions of the settings; the arithmetic is BLIS's (float64 then truncation), so step times
 * match it to the µs.
 */
export class AdapterCost {
  private readonly tiers: readonly StepOverheadTier[];

  constructor(private readonly settings: LoraSettings) {
    this.tiers = [...settings.stepOverheadTiers].sort((a, b) => a.rank - b.rank);
  }

  /** Adapter weights of a rank, bytes. */
  footprintBytes(rank: number): number {
    return this.settings.footprintBytesPerRank * rank;
  }

  /** A cold load of a rank-`rank` adapter, in whole µs (at least 1): base + ceil(footprint / bandwidth), rounded up. */
  loadTicks(rank: number): number {
    const s = this.settings;
    const us = s.loadBaseLatencyUs + Math.ceil(this.footprintBytes(rank) / s.loadBandwidthBytesUs);
    return Math.max(1, Math.ceil(us));
  }

  /**
   * The step time multiplier of a batch running `distinct` adapters whose largest rank is
   * `maxRank`: 1 + (k6 / k7) × distinct, with the tier of the nearest calibrated rank (ties to
   * the lower). 1 without adapters or tiers.
   */
  stepFactor(distinct: number, maxRank: number): number {
    if (distinct === 0) return 1;
    const t = this.tierFor(maxRank);
    return t === undefined ? 1 : 1 + (t.k6 / t.k7) * distinct;
  }

  /** A base step time scaled by {@link stepFactor}, truncated to whole µs, at least 1. */
  scaleStep(baseUs: number, distinct: number, maxRank: number): number {
    const f = this.stepFactor(distinct, maxRank);
    if (!(f > 1) || !Number.isFinite(f)) return baseUs;
    return Math.max(1, Math.trunc(baseUs * f));
  }

  /**
   * HBM the adapter slots reserve: every slot sized for the largest declared rank (any adapter
   * fits any slot), times the slots. Constant for the run, whatever is resident.
   */
  reservedBytes(): number {
    let maxRank = 0;
    for (const a of this.settings.adapters) if (a.rank > maxRank) maxRank = a.rank;
    return Math.trunc(this.settings.capacity * this.settings.footprintBytesPerRank * maxRank);
  }

  private tierFor(rank: number): StepOverheadTier | undefined {
    const tiers = this.tiers;
    if (tiers.length === 0) return undefined;
    let best = tiers[0];
    for (let i = 1; i < tiers.length; i++) if (Math.abs(rank - tiers[i].rank) < Math.abs(rank - best.rank)) best = tiers[i];
    return best;
  }
}
