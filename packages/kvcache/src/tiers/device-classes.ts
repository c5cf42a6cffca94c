import type { DeviceFigures } from './tier-config.js';

/**
 * The storage device classes BLIS ships in `defaults.yaml` (`kv_offload_devices`, BLIS HEAD
 * f90a1e3a): bandwidths in bytes per µs, base latency in µs. None of them sets a queue-depth
 * ramp or jitter, so those take their neutral values. Buffered (non-O_DIRECT) variants fall
 * back to these figures, as in BLIS, since no shipped class sets `buffered_*` keys.
 */
export const DEVICE_CLASSES: Readonly<Record<string, Readonly<DeviceFigures>>> = {
  nvme_gen4: device(7000, 5000, 80),
  nvme_gen3: device(3500, 3000, 100),
  sata_ssd: device(550, 500, 150),
  cpu_dram: device(20000, 20000, 1),
  s3: device(1000, 1000, 30000),
};

function device(read: number, write: number, base: number): DeviceFigures {
  return { readBandwidth: read, writeBandwidth: write, baseLatencyUs: base, saturationQueueDepth: 1, singleTransferFraction: 1, latencyJitterStddev: 0 };
}
