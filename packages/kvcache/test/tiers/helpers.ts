import { DEVICE_CLASSES, type DeviceFigures, type MirrorBatch, type OffloadChainConfig, type SecondaryTierConfig } from '../../src/index.js';

/** Llama-3.1-8B at TP 1 and B = 16 (reference §1.9 KV-2). */
export const PER_BLOCK_BYTES = 2_097_152;

/** A secondary `fs` tier on the given device class, 16 + 16 threads unless overridden. */
export function fsTier(deviceClass = 'nvme_gen4', over: Partial<SecondaryTierConfig> = {}, device: Partial<DeviceFigures> = {}): SecondaryTierConfig {
  return {
    type: 'fs',
    rootDir: '/tmp/kv',
    nReadThreads: 16,
    nWriteThreads: 16,
    locality: '',
    enableKvEvents: false,
    directIo: true,
    deviceClass,
    device: { ...DEVICE_CLASSES[deviceClass], ...device },
    ...over,
  };
}

/** A resolved offload-chain config with `cpuBlocks` CPU blocks of PER_BLOCK_BYTES each. */
export function chainConfig(cpuBlocks: number, secondaryTiers: SecondaryTierConfig[], over: Partial<OffloadChainConfig> = {}): OffloadChainConfig {
  return {
    kind: 'offload',
    cpuBytesToUse: cpuBlocks * PER_BLOCK_BYTES,
    perBlockBytes: PER_BLOCK_BYTES,
    cpuBlocks,
    blockSize: 16,
    blocksPerChunk: 1,
    tokensPerHash: 16,
    evictionPolicy: 'lru',
    offloadPromptOnly: true,
    selfDescribingKvEvents: false,
    secondaryTiers,
    ...over,
  };
}

/** A seeded standard-normal source (mulberry32 + Box-Muller), for jitter tests. */
export function seededNormal(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const u = 1 - uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}

/** A mirror batch of owners with their prompt lengths (the offload chain reads no hashes). */
export function mirrorOf(owners: number[], inputTokens: number[]): MirrorBatch {
  return { count: owners.length, owners, inputTokens, keys: owners, hashCounts: owners.map(() => 0), hashesOf: () => [] };
}
