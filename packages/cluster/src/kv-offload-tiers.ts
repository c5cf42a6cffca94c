import { DEVICE_CLASSES, type DeviceFigures, type SecondaryTierConfig } from '@blis/kvcache';
import type { KVOffloadTierSettings } from './kv-offload-schema.js';

/** What a tier gets when it names no class: BLIS's "no ramp, no jitter" device model. */
const NEUTRAL_RAMP = { saturationQueueDepth: 1, singleTransferFraction: 1, latencyJitterStddev: 0 };

/**
 * Resolves one validated secondary tier: its class's figures, then every explicit key on top.
 * BLIS picks a class's `buffered_*` figures when `directIo` is false and falls back to the
 * O_DIRECT ones where a class has none; no shipped class has any, so both regimes read the
 * same figures here and `directIo` is recorded for the trace header.
 */
export function resolveSecondaryTier(t: KVOffloadTierSettings): SecondaryTierConfig {
  const cls: Partial<DeviceFigures> = t.deviceClass !== undefined ? DEVICE_CLASSES[t.deviceClass] : {};
  const device: DeviceFigures = {
    // The schema guarantees a class or all three figures, so the zeros are never used.
    readBandwidth: t.readBandwidth ?? cls.readBandwidth ?? 0,
    writeBandwidth: t.writeBandwidth ?? cls.writeBandwidth ?? 0,
    baseLatencyUs: t.baseLatency ?? cls.baseLatencyUs ?? 0,
    saturationQueueDepth: t.saturationQueueDepth ?? cls.saturationQueueDepth ?? NEUTRAL_RAMP.saturationQueueDepth,
    singleTransferFraction: t.singleTransferFraction ?? cls.singleTransferFraction ?? NEUTRAL_RAMP.singleTransferFraction,
    latencyJitterStddev: t.latencyJitterStddev ?? cls.latencyJitterStddev ?? NEUTRAL_RAMP.latencyJitterStddev,
  };
  const tier: SecondaryTierConfig = {
    type: 'fs',
    rootDir: t.rootDir,
    nReadThreads: t.nReadThreads,
    nWriteThreads: t.nWriteThreads,
    locality: t.locality,
    enableKvEvents: t.enableKvEvents,
    directIo: t.directIo,
    device,
  };
  if (t.deviceClass !== undefined) tier.deviceClass = t.deviceClass;
  return tier;
}

/** Whether `name` is a device class this build ships (BLIS HEAD's `kv_offload_devices`). */
export function isShippedDeviceClass(name: string): boolean {
  return Object.hasOwn(DEVICE_CLASSES, name);
}
