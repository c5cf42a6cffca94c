import { parseModelConfig } from '@blis/latency';
import { modelConfigRaw } from '@blis/latency/internal';
import type { TraceKVOffloadBlock } from '@blis/workload';
import { kvOffloadHeaderBlock } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { KVOffloadSchema, type KVOffloadSettings, SimulationConfigSchema } from '../src/index.js';
import { kvOffloadFromHeader, reconcileReplayKVOffload, resolveKVTiers } from '../src/internal.js';

// BLIS INV-13 on replay: the trace header's kv_offload block is authoritative.

const llama = parseModelConfig(modelConfigRaw('meta-llama/llama-3.1-8b-instruct'), 'llama');
const settings = (o: Record<string, unknown>): KVOffloadSettings => KVOffloadSchema.parse({ cpuBytesToUse: 17_179_869_184, ...o });
const nvme = { type: 'fs', rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4' };

/** The header block `blis convert --kv-offload-config` writes for these settings with Llama-3.1-8B at `tp`. */
function recorded(o: Record<string, unknown>, tp = 1): TraceKVOffloadBlock {
  const chain = resolveKVTiers(SimulationConfigSchema.parse({ kvOffload: settings(o) }), llama, tp, 16);
  if (chain?.kind !== 'offload') throw new Error('expected an offload chain');
  return kvOffloadHeaderBlock(chain);
}

describe('the kv_offload header block', () => {
  it('carries the resolved chain with BLIS\'s keys, per_block_bytes and the class\'s figures', () => {
    expect(recorded({ secondaryTiers: [nvme] })).toEqual({
      cpu_bytes_to_use: 17_179_869_184,
      per_block_bytes: 2_097_152,
      block_size: 16,
      blocks_per_chunk: 1,
      tokens_per_hash: 16,
      eviction_policy: 'lru',
      offload_prompt_only: true,
      self_describing_kv_events: false,
      secondary_tiers: [
        {
          type: 'fs',
          root_dir: '/mnt/nvme',
          n_read_threads: 16,
          n_write_threads: 16,
          enable_kv_events: false,
          direct_io: true,
          device_class: 'nvme_gen4',
          read_bandwidth: 7000,
          write_bandwidth: 5000,
          base_latency: 80,
          saturation_queue_depth: 1,
          single_transfer_fraction: 1,
          latency_jitter_stddev: 0,
        },
      ],
    });
    expect(Object.keys(recorded({}))).not.toContain('secondary_tiers');
  });

  it('reproduces the chain it records, per-block size included, without the model', () => {
    const header = recorded({ secondaryTiers: [{ ...nvme, readBandwidth: 123 }, { type: 'fs', rootDir: '/n', directIo: false, readBandwidth: 1, writeBandwidth: 2, baseLatency: 3, locality: 'LOCAL' }] }, 2);
    const replayed = resolveKVTiers(SimulationConfigSchema.parse({ kvOffload: kvOffloadFromHeader(header) }), undefined, 4, 16);
    expect(replayed?.kind === 'offload' && kvOffloadHeaderBlock(replayed)).toEqual(header);
    expect(replayed).toMatchObject({ perBlockBytes: 1_048_576, cpuBlocks: 16_384 });
  });

  it('drops a device class this build does not ship and keeps the recorded figures (and ramp)', () => {
    const header = recorded({ secondaryTiers: [nvme] });
    const tier = { ...header.secondary_tiers[0], device_class: 'optane_x', saturation_queue_depth: 4, single_transfer_fraction: 0.25 };
    const input = kvOffloadFromHeader({ ...header, secondary_tiers: [tier] });
    expect(input.secondaryTiers?.[0]).toMatchObject({ deviceClass: undefined, readBandwidth: 7000, saturationQueueDepth: 4, singleTransferFraction: 0.25 });
  });

  it('a recorded chunk of several blocks stays refused', () => {
    const input = kvOffloadFromHeader({ ...recorded({}), block_size: 32, blocks_per_chunk: 2 });
    expect(KVOffloadSchema.safeParse(input).success).toBe(false);
  });
});

describe('reconcileReplayKVOffload', () => {
  const base = { blockSizeTokens: 16 };

  it('the header\'s block wins when no config is given', () => {
    const header = recorded({ secondaryTiers: [nvme] });
    expect(reconcileReplayKVOffload({ ...base, header, mode: 'generated' })).toEqual({ ok: true, kvOffload: kvOffloadFromHeader(header), from: 'header' });
  });

  it('a given config that resolves to the header is accepted, per_block_bytes aside', () => {
    const header = { ...recorded({ secondaryTiers: [nvme] }), per_block_bytes: 999 };
    const out = reconcileReplayKVOffload({ ...base, header, mode: 'replayed', given: settings({ secondaryTiers: [nvme] }) });
    expect(out).toMatchObject({ ok: true, from: 'header', kvOffload: { perBlockBytes: 999 } });
  });

  it('a given config that differs is a conflict, naming each differing key', () => {
    const header = recorded({ secondaryTiers: [nvme] });
    const out = reconcileReplayKVOffload({ ...base, header, mode: 'generated', given: settings({ offloadPromptOnly: false, secondaryTiers: [{ ...nvme, baseLatency: 5 }] }) });
    expect(out).toEqual({
      ok: false,
      reason: 'conflict',
      differences: [
        { key: ['offload_prompt_only'], header: true, given: false },
        { key: ['secondary_tiers', 0, 'base_latency'], header: 80, given: 5 },
      ],
    });
    const fewer = reconcileReplayKVOffload({ ...base, header, mode: 'generated', given: settings({}) });
    expect(fewer).toMatchObject({ ok: false, reason: 'conflict', differences: [{ key: ['secondary_tiers'], header: '1 tier(s)', given: '0 tier(s)' }] });
  });

  it('adding a config to a simulated trace is refused; to an observed one (mode real) it is allowed', () => {
    const given = settings({});
    expect(reconcileReplayKVOffload({ ...base, mode: 'generated', given })).toEqual({ ok: false, reason: 'added-to-simulated' });
    expect(reconcileReplayKVOffload({ ...base, mode: 'replayed', given })).toEqual({ ok: false, reason: 'added-to-simulated' });
    expect(reconcileReplayKVOffload({ ...base, mode: 'real', given })).toEqual({ ok: true, kvOffload: given, from: 'given' });
  });

  it('a tiered observed hit rate needs an offload chain, from the header or given', () => {
    expect(reconcileReplayKVOffload({ ...base, mode: 'real', observedSource: 'tiered' })).toEqual({ ok: false, reason: 'tiered-needs-offload' });
    expect(reconcileReplayKVOffload({ ...base, mode: 'real', observedSource: 'tiered', given: settings({}) })).toMatchObject({ ok: true, from: 'given' });
    expect(reconcileReplayKVOffload({ ...base, mode: 'real', observedSource: 'gpu-prefix-cache-fallback' })).toEqual({ ok: true, from: 'none' });
    expect(reconcileReplayKVOffload({ ...base, header: recorded({}), mode: 'real', observedSource: 'tiered' })).toMatchObject({ ok: true, from: 'header' });
  });

  it('no header block and no config: nothing to do', () => {
    expect(reconcileReplayKVOffload({ ...base, mode: 'generated' })).toEqual({ ok: true, from: 'none' });
  });
});
