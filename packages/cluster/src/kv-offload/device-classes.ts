import { describeFound } from '@blis/policies/internal';
import { isShippedDeviceClass } from '../kv-offload-tiers.js';
import type { KVOffloadInput } from '../kv-offload-schema.js';
import { type KVOffloadIssue, type KVOffloadSource, locateIn } from './block-issues.js';

/**
 * A device class as BLIS's defaults.yaml `kv_offload_devices:` writes it (bytes/µs and µs): the
 * O_DIRECT figures, and optionally the buffered-I/O ones (each absent one falls back to its
 * O_DIRECT value).
 */
export interface KVOffloadDeviceClass {
  /** Bytes per µs read with O_DIRECT. */
  read_bandwidth: number;
  /** Bytes per µs written with O_DIRECT. */
  write_bandwidth: number;
  /** µs per transfer with O_DIRECT. */
  base_latency: number;
  /** Queue depth at which a direction reaches full bandwidth (default 1; below 2 there is no ramp). */
  saturation_queue_depth?: number;
  /** Share of full bandwidth a lone transfer gets (default 1). */
  single_transfer_fraction?: number;
  /** Standard deviation of the multiplicative service-time jitter (default 0: none). */
  latency_jitter_stddev?: number;
  /** Buffered-I/O figures (`direct_io: false`), each defaulting to its O_DIRECT one. */
  buffered_read_bandwidth?: number;
  /** See `buffered_read_bandwidth`. */
  buffered_write_bandwidth?: number;
  /** See `buffered_read_bandwidth`. */
  buffered_base_latency?: number;
  /** See `buffered_read_bandwidth`. */
  buffered_saturation_queue_depth?: number;
  /** See `buffered_read_bandwidth`. */
  buffered_single_transfer_fraction?: number;
  /** See `buffered_read_bandwidth`. */
  buffered_latency_jitter_stddev?: number;
}

/** Device classes a tier's `device_class` names in place of the shipped ones, and the file they come from. */
export interface KVOffloadDeviceClasses {
  /** The file that defines them (named in messages): a BLIS defaults.yaml. */
  source: string;
  /** By class name, as `device_class` names them. */
  classes: Readonly<Record<string, KVOffloadDeviceClass>>;
}

/** A tier's explicit device figures (the library's keys) from a class, in the regime `directIo` picks. */
interface TierFigures {
  readBandwidth: number;
  writeBandwidth: number;
  baseLatency: number;
  saturationQueueDepth: number;
  singleTransferFraction: number;
  latencyJitterStddev: number;
}

/**
 * A class's figures as BLIS resolves them for a tier: the O_DIRECT ones, or with buffered I/O the
 * `buffered_*` ones, each absent one falling back to its O_DIRECT value; no ramp and no jitter
 * unless the class sets them.
 */
function tierFigures(d: KVOffloadDeviceClass, directIo: boolean): TierFigures {
  const direct: TierFigures = {
    readBandwidth: d.read_bandwidth,
    writeBandwidth: d.write_bandwidth,
    baseLatency: d.base_latency,
    saturationQueueDepth: d.saturation_queue_depth ?? 1,
    singleTransferFraction: d.single_transfer_fraction ?? 1,
    latencyJitterStddev: d.latency_jitter_stddev ?? 0,
  };
  if (directIo) return direct;
  return {
    readBandwidth: d.buffered_read_bandwidth ?? direct.readBandwidth,
    writeBandwidth: d.buffered_write_bandwidth ?? direct.writeBandwidth,
    baseLatency: d.buffered_base_latency ?? direct.baseLatency,
    saturationQueueDepth: d.buffered_saturation_queue_depth ?? direct.saturationQueueDepth,
    singleTransferFraction: d.buffered_single_transfer_fraction ?? direct.singleTransferFraction,
    latencyJitterStddev: d.buffered_latency_jitter_stddev ?? direct.latencyJitterStddev,
  };
}

/**
 * A tier's `device_class` resolved from `devices` instead of the shipped classes, as BLIS
 * resolves it: the class's figures for the tier's I/O regime, under any the tier sets itself.
 * A class this build ships keeps its name (for the output); another is spelt out.
 */
export function withDeviceClasses(src: KVOffloadSource, input: KVOffloadInput, devices: KVOffloadDeviceClasses, issues: KVOffloadIssue[]): void {
  const tiers = (input as { secondaryTiers?: unknown }).secondaryTiers;
  if (!Array.isArray(tiers)) return;
  tiers.forEach((t: Record<string, unknown> | null, i) => {
    if (t === null || typeof t !== 'object' || typeof t.deviceClass !== 'string') return;
    const cls = devices.classes[t.deviceClass];
    if (cls === undefined) {
      const known = Object.keys(devices.classes);
      issues.push({
        ...locateIn(src.file, src.yaml, [...src.root, 'secondary_tiers', i, 'device_class']),
        expected: known.length > 0 ? `a device class of ${devices.source} kv_offload_devices (${known.join(', ')})` : `a device class, but ${devices.source} has no kv_offload_devices`,
        found: describeFound(t.deviceClass),
      });
      return;
    }
    const figures = tierFigures(cls, t.directIo !== false);
    for (const [k, v] of Object.entries(figures)) t[k] ??= v;
    if (!isShippedDeviceClass(t.deviceClass)) delete t.deviceClass;
  });
}
