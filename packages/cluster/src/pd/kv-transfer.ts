/** The P/D KV transfer link's settings (BLIS's `--pd-transfer-*`). */
export interface KvTransferSettings {
  /** KV bytes of one block as the prefill pod holds it: block size × KV bytes per token at prefill TP. */
  bytesPerBlock: number;
  bandwidthGBps: number;
  baseLatencyMs: number;
  contention: boolean;
}

/**
 * Transfer durations and the link's contention figures. A transfer moves every prompt block,
 * cached on the decode pod or not: `max(1, ceil(base + blocks × bytesPerBlock / bandwidth))` µs,
 * with 1 GB/s = 1000 B/µs. With contention each transfer gets the bandwidth divided by the
 * transfers active when it starts, itself included, for its whole duration (an arrival-time
 * fair share, as BLIS has it, not processor sharing).
 */
export class KvTransferLink {
  readonly settings: KvTransferSettings;
  active = 0;
  peak = 0;
  private depthSum = 0;
  private starts = 0;

  constructor(settings: KvTransferSettings) {
    this.settings = settings;
  }

  /** Starts a transfer of `blocks` KV blocks and returns its duration in µs. */
  start(blocks: number): number {
    const s = this.settings;
    let bw = s.bandwidthGBps * 1000;
    if (s.contention) {
      this.active++;
      if (this.active > this.peak) this.peak = this.active;
      this.depthSum += this.active;
      this.starts++;
      if (this.active > 1) bw /= this.active;
    }
    return transferDurationUs(blocks * s.bytesPerBlock, bw, s.baseLatencyMs * 1000);
  }

  finish(): void {
    if (this.settings.contention) this.active--;
  }

  /** Mean of the active transfers seen by each start, itself included (0 before any). */
  get meanQueueDepth(): number {
    return this.starts === 0 ? 0 : this.depthSum / this.starts;
  }
}

/** BLIS's formula: `max(1, ceil(base + bytes / bandwidth))` µs, bandwidth in bytes per µs. */
export function transferDurationUs(bytes: number, bytesPerUs: number, baseUs: number): number {
  const d = Math.ceil(bytesPerUs > 0 ? baseUs + bytes / bytesPerUs : baseUs);
  return Math.max(1, d);
}
