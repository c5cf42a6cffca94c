import { ArrayRequestSource } from '@blis/engine';
import { BlackboxLatencyModel, parseModelConfig } from '@blis/latency';
import { modelConfigRaw } from '@blis/latency/internal';
import { describe, expect, it } from 'vitest';
import { KVTierConfigError, type SimulationConfigInput, SimulationConfigSchema, prepareSimulation } from '../src/index.js';
import { resolveKVTiers } from '../src/internal.js';

// The KV tier part of SimulationConfig (reference §1.2) and its resolution into the per-instance
// KVTierConfig: BLIS's rules, its KV-2 sizing example, and every refusal.

const GiB16 = 17_179_869_184;
const llama = parseModelConfig(modelConfigRaw('meta-llama/llama-3.1-8b-instruct'), 'llama');
const parse = (c: SimulationConfigInput) => SimulationConfigSchema.parse(c);
const tiers = (c: SimulationConfigInput, tp = 1) => resolveKVTiers(parse(c), llama, tp, parse(c).blockSizeTokens);
const nvme = { type: 'fs', rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4' };

/** The messages zod gives for `c`, as `path: message`. */
function refusals(c: unknown): string[] {
  const r = SimulationConfigSchema.safeParse(c);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('resolveKVTiers', () => {
  it('gives no tiers by default: GPU only, the run it always was', () => {
    expect(tiers({})).toBeUndefined();
    expect(parse({})).toMatchObject({ kvCpuBlocks: 0, kvTransferBandwidth: 100, kvTransferBaseLatencyUs: 0, kvOffloadThreshold: 0.9, kvReloadRecompute: false });
  });

  it('the legacy CPU tier from kvCpuBlocks and the transfer figures', () => {
    expect(tiers({ kvCpuBlocks: 500 })).toEqual({ kind: 'cpu', cpuBlocks: 500, transferBandwidth: 100, transferBaseLatencyUs: 0, recomputeReloaded: false });
    expect(tiers({ kvCpuBlocks: 2, kvTransferBandwidth: 4, kvTransferBaseLatencyUs: 10, kvReloadRecompute: true })).toEqual({
      kind: 'cpu',
      cpuBlocks: 2,
      transferBandwidth: 4,
      transferBaseLatencyUs: 10,
      recomputeReloaded: true,
    });
  });

  it('KV-2: Llama-3.1-8B at TP 1 has 2,097,152-byte blocks, so 16 GiB holds 8192; at TP 2 half the bytes and twice the blocks', () => {
    expect(tiers({ kvOffload: { cpuBytesToUse: GiB16 } })).toMatchObject({ kind: 'offload', perBlockBytes: 2_097_152, cpuBlocks: 8192 });
    expect(tiers({ kvOffload: { cpuBytesToUse: GiB16 } }, 2)).toMatchObject({ perBlockBytes: 1_048_576, cpuBlocks: 16_384 });
  });

  it('fills in vLLM\'s defaults: block size and hash stride = the GPU block, LRU, prompt-only offload, no tiers', () => {
    expect(tiers({ blockSizeTokens: 32, kvOffload: { cpuBytesToUse: GiB16 } })).toEqual({
      kind: 'offload',
      cpuBytesToUse: GiB16,
      perBlockBytes: 4_194_304,
      cpuBlocks: 4096,
      blockSize: 32,
      blocksPerChunk: 1,
      tokensPerHash: 32,
      evictionPolicy: 'lru',
      offloadPromptOnly: true,
      selfDescribingKvEvents: false,
      secondaryTiers: [],
      recomputeReloaded: false,
    });
  });

  it('resolves a device class to its figures, the same for buffered I/O (no shipped class has buffered ones)', () => {
    const direct = tiers({ kvOffload: { cpuBytesToUse: GiB16, secondaryTiers: [nvme] } });
    const buffered = tiers({ kvOffload: { cpuBytesToUse: GiB16, secondaryTiers: [{ ...nvme, directIo: false }] } });
    const figures = { readBandwidth: 7000, writeBandwidth: 5000, baseLatencyUs: 80, saturationQueueDepth: 1, singleTransferFraction: 1, latencyJitterStddev: 0 };
    expect(direct?.kind === 'offload' && direct.secondaryTiers).toEqual([
      { type: 'fs', rootDir: '/mnt/nvme', nReadThreads: 16, nWriteThreads: 16, locality: '', enableKvEvents: false, directIo: true, deviceClass: 'nvme_gen4', device: figures },
    ]);
    expect(buffered?.kind === 'offload' && buffered.secondaryTiers[0]).toMatchObject({ directIo: false, device: figures });
  });

  it('explicit figures override the class one by one, and three explicit figures need no class', () => {
    const c = tiers({
      kvOffload: {
        cpuBytesToUse: GiB16,
        secondaryTiers: [
          { ...nvme, readBandwidth: 9000, baseLatency: 0 },
          { type: 'fs', rootDir: '/nfs', directIo: false, readBandwidth: 900, writeBandwidth: 800, baseLatency: 500, nReadThreads: 2, locality: 'REMOTE' },
        ],
      },
    });
    if (c?.kind !== 'offload') throw new Error('expected an offload chain');
    expect(c.secondaryTiers[0].device).toMatchObject({ readBandwidth: 9000, writeBandwidth: 5000, baseLatencyUs: 0 });
    expect(c.secondaryTiers[1]).toMatchObject({ nReadThreads: 2, nWriteThreads: 16, locality: 'REMOTE', device: { readBandwidth: 900, writeBandwidth: 800, baseLatencyUs: 500, saturationQueueDepth: 1 } });
    expect(c.secondaryTiers[1].deviceClass).toBeUndefined();
  });

  it('a pinned perBlockBytes (a replayed trace header) needs no model; 0 and 1 store thresholds are kept and change nothing', () => {
    const c = resolveKVTiers(parse({ kvOffload: { cpuBytesToUse: 1000, perBlockBytes: 300, storeThreshold: 1 } }), undefined, 1, 16);
    expect(c).toMatchObject({ perBlockBytes: 300, cpuBlocks: 3, storeThreshold: 1 });
  });

  it('refuses an offload chain without a model config, a CPU budget under one block, and an undefined KV size', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(KVTierConfigError);
        return e as KVTierConfigError;
      }
      throw new Error('expected a KVTierConfigError');
    };
    expect(err(() => resolveKVTiers(parse({ kvOffload: { cpuBytesToUse: GiB16 } }), undefined, 1, 16))).toMatchObject({ path: ['kvOffload'], expected: expect.stringMatching(/model config/) });
    expect(err(() => tiers({ kvOffload: { cpuBytesToUse: 2_097_151 } })).message).toBe(
      "kvOffload.cpuBytesToUse: expected at least one block's worth of bytes (2097152 per block on one TP rank), found 2097151",
    );
    expect(err(() => tiers({ kvOffload: { cpuBytesToUse: GiB16 } }, 3)).found).toMatch(/8 KV heads to divide evenly by TP 3/);
  });
});

describe('SimulationConfigSchema refuses', () => {
  const offload = (o: Record<string, unknown>, top: Record<string, unknown> = {}) => ({ ...top, kvOffload: { cpuBytesToUse: GiB16, ...o } });
  const tier = (t: Record<string, unknown>) => offload({ secondaryTiers: [{ ...nvme, ...t }] });

  it.each<[string, unknown, string]>([
    ['both kvCpuBlocks and kvOffload', offload({}, { kvCpuBlocks: 8 }), 'kvOffload: expected kvCpuBlocks 0 beside kvOffload (the legacy CPU tier and the offload chain are distinct models; set only one), found kvCpuBlocks 8'],
    ['a missing cpuBytesToUse', { kvOffload: {} }, 'kvOffload.cpuBytesToUse: expected a positive number of bytes per TP rank (required), found nothing'],
    ['blocksPerChunk 2 (BLIS panics)', offload({ blocksPerChunk: 2 }), 'kvOffload.blocksPerChunk: expected 1 (BLIS accepts chunks of several GPU blocks and then panics in its offload mechanism, so they are refused here), found 2'],
    ['a block size of two GPU blocks', offload({ blockSize: 32 }), 'kvOffload.blockSize: expected the GPU block size 16 (32 tokens means blocksPerChunk 2, which BLIS accepts and then panics on, so it is refused here), found 32'],
    ['a block size that is no multiple', offload({ blockSize: 20 }), 'kvOffload.blockSize: expected the GPU block size 16 (a block size must be a positive multiple of it), found 20'],
    ['both blockSize and blocksPerChunk', offload({ blockSize: 16, blocksPerChunk: 1 }), 'kvOffload.blocksPerChunk: expected at most one of blockSize and blocksPerChunk (they encode the same quantity: blockSize = blocksPerChunk × the GPU block size), found both'],
    ['ARC eviction (BLIS panics)', offload({ evictionPolicy: 'arc' }), 'kvOffload.evictionPolicy: expected "lru" (BLIS accepts "arc" and then panics in its offload mechanism, so it is refused here), found "arc"'],
    ['an unknown eviction policy', offload({ evictionPolicy: 'fifo' }), 'kvOffload.evictionPolicy: expected "lru", found "fifo"'],
    ['store threshold 2', offload({ storeThreshold: 2 }), expect.stringMatching(/^kvOffload\.storeThreshold: expected 0 or 1 .*vLLM's tiering offload refuses 2 or more.*found 2$/) as unknown as string],
    ['a negative store threshold', offload({ storeThreshold: -1 }), expect.stringMatching(/^kvOffload\.storeThreshold: expected 0 or 1 .*found -1$/) as unknown as string],
    ['an obj tier', tier({ type: 'obj' }), 'kvOffload.secondaryTiers.0.type: expected "fs" (BLIS represents only filesystem tiers; obj, p2p and example are not supported), found "obj"'],
    ['an unknown device class', tier({ deviceClass: 'floppy' }), 'kvOffload.secondaryTiers.0.deviceClass: expected a known device class (nvme_gen4, nvme_gen3, sata_ssd, cpu_dram, s3), found "floppy"'],
    ['a tier with neither class nor figures', tier({ deviceClass: undefined }), 'kvOffload.secondaryTiers.0: expected a deviceClass, or all three of readBandwidth, writeBandwidth and baseLatency, found neither'],
    ['a tier with two of three figures', tier({ deviceClass: undefined, readBandwidth: 1, writeBandwidth: 1 }), 'kvOffload.secondaryTiers.0: expected a deviceClass, or all three of readBandwidth, writeBandwidth and baseLatency, found only readBandwidth and writeBandwidth'],
    ['a tier without directIo', tier({ directIo: undefined }), expect.stringMatching(/^kvOffload\.secondaryTiers\.0\.directIo: expected true or false, set explicitly .*found nothing$/) as unknown as string],
    ['a non-positive read bandwidth', tier({ readBandwidth: 0 }), 'kvOffload.secondaryTiers.0.readBandwidth: Too small: expected number to be >0'],
    ['an empty root directory', tier({ rootDir: '' }), 'kvOffload.secondaryTiers.0.rootDir: expected a non-empty directory, found ""'],
    ['zero read threads', tier({ nReadThreads: 0 }), 'kvOffload.secondaryTiers.0.nReadThreads: Too small: expected number to be >0'],
    ['a ramp with a zero lone-transfer share', tier({ saturationQueueDepth: 4, singleTransferFraction: 0 }), 'kvOffload.secondaryTiers.0.singleTransferFraction: expected a fraction in (0, 1] when the saturation queue depth is 4, found 0'],
    ['an unknown key', offload({ colour: 'red' }), 'kvOffload: Unrecognized key: "colour"'],
    ['a zero transfer bandwidth', { kvTransferBandwidth: 0 }, 'kvTransferBandwidth: Too small: expected number to be >0'],
    ['an offload threshold above 1', { kvOffloadThreshold: 1.5 }, 'kvOffloadThreshold: Too big: expected number to be <=1'],
    ['a negative CPU block count', { kvCpuBlocks: -1 }, 'kvCpuBlocks: Too small: expected number to be >=0'],
  ])('%s', (_, config, message) => {
    expect(refusals(config)).toContainEqual(message);
  });

  it('accepts a store threshold of 0 or 1, a block size equal to the GPU block, and blocksPerChunk 1', () => {
    for (const o of [{ storeThreshold: 0 }, { storeThreshold: 1 }, { blockSize: 16 }, { blocksPerChunk: 1 }, { evictionPolicy: 'lru' }]) expect(refusals(offload(o))).toEqual([]);
  });
});

describe('prepareSimulation', () => {
  const source = () => new ArrayRequestSource([]);

  it('gives every instance the resolved tiers and reports them in PreparedRun', () => {
    const p = prepareSimulation({ numInstances: 2, latencyModel: 'blackbox', kvOffload: { cpuBytesToUse: GiB16, secondaryTiers: [nvme] } }, { source: source() });
    expect(p.kvTiers).toMatchObject({ kind: 'offload', perBlockBytes: 2_097_152, cpuBlocks: 8192 });
    expect(p.cluster.instances.map((i) => i.config.kvTiers)).toEqual([p.kvTiers, p.kvTiers]);
  });

  it('leaves the tiers out without kvCpuBlocks or kvOffload', () => {
    const p = prepareSimulation({ latencyModel: 'blackbox' }, { source: source() });
    expect(p.kvTiers).toBeUndefined();
    expect('kvTiers' in p.cluster.instances[0].config).toBe(false);
  });

  it('sizes blocks from the model config even when a custom latency model skips latency resolution', () => {
    const latency = new BlackboxLatencyModel([1000, 1, 1], [0, 0, 0]);
    const p = prepareSimulation({ totalKVBlocks: 100, kvOffload: { cpuBytesToUse: GiB16 } }, { source: source(), latency });
    expect(p.kvTiers).toMatchObject({ perBlockBytes: 2_097_152 });
  });

  it('refuses an offload chain for a model without a config.json', () => {
    const latency = new BlackboxLatencyModel([1000, 1, 1], [0, 0, 0]);
    expect(() => prepareSimulation({ model: 'microsoft/phi-4', totalKVBlocks: 100, kvOffload: { cpuBytesToUse: GiB16 } }, { source: source(), latency })).toThrow(KVTierConfigError);
  });
});
