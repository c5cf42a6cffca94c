import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrayRequestSource } from '@blis/engine';
import type { OffloadChainConfig } from '@blis/kvcache';
import { TraceReadError, openTraceV2, readTraceV2Header, writeTraceV2 } from '@blis/workload';
import { kvOffloadHeaderBlock } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { drain } from '../src/testing/index.js';

// The TraceV2 header's kv_offload and observed_kv_metrics blocks (BLIS sim/workload/tracev2.go).

const dir = mkdtempSync(join(tmpdir(), 'blis-tracev2-kv-'));
const chain: OffloadChainConfig = {
  kind: 'offload',
  cpuBytesToUse: 17_179_869_184,
  perBlockBytes: 2_097_152,
  cpuBlocks: 8192,
  blockSize: 16,
  blocksPerChunk: 1,
  tokensPerHash: 16,
  evictionPolicy: 'lru',
  offloadPromptOnly: true,
  selfDescribingKvEvents: false,
  secondaryTiers: [
    {
      type: 'fs',
      rootDir: '/mnt/nvme',
      nReadThreads: 16,
      nWriteThreads: 8,
      locality: 'LOCAL',
      enableKvEvents: false,
      directIo: true,
      deviceClass: 'nvme_gen4',
      device: { readBandwidth: 7000, writeBandwidth: 5000, baseLatencyUs: 80, saturationQueueDepth: 1, singleTransferFraction: 1, latencyJitterStddev: 0 },
    },
  ],
};
const requests = () =>
  new ArrayRequestSource([{ index: 0, id: 'request_0', arrivalUs: 0, inputTokens: 20, outputTokens: 5, blockHashes: [], clientId: '', tenantId: '', sloClass: '', sessionId: '', roundIndex: 0, prefixGroup: '', prefixLength: 0, streaming: false, deadlineUs: 0, sloTargetUs: 0, networkDelayUs: 0 }] as never);

describe('TraceV2 header kv_offload', () => {
  it('a header without tiered blocks is written exactly as before', () => {
    writeTraceV2(requests(), join(dir, 'plain.yaml'), join(dir, 'plain.csv'));
    expect(readFileSync(join(dir, 'plain.yaml'), 'utf8')).toBe('trace_version: 2\ntime_unit: microseconds\nmode: generated\nwarm_up_requests: 0\n');
  });

  it('is written as a nested block with BLIS\'s keys, read back equal, and the rows still replay', () => {
    const block = kvOffloadHeaderBlock(chain);
    writeTraceV2(requests(), join(dir, 'off.yaml'), join(dir, 'off.csv'), { kv_offload: block });
    const text = readFileSync(join(dir, 'off.yaml'), 'utf8');
    expect(text).toContain('kv_offload:\n  cpu_bytes_to_use: 17179869184\n  per_block_bytes: 2097152\n');
    expect(text).toContain('    - type: fs\n      root_dir: /mnt/nvme\n      n_read_threads: 16\n      n_write_threads: 8\n      locality: LOCAL\n');
    expect(readTraceV2Header(join(dir, 'off.yaml')).kv_offload).toEqual(block);
    expect(drain(openTraceV2(join(dir, 'off.yaml'))).map((r) => r.inputTokens)).toEqual([20]);
  });

  it('leaves empty locality, device class and tier list out, as BLIS\'s omitempty does', () => {
    const bare = kvOffloadHeaderBlock({ ...chain, secondaryTiers: [{ ...chain.secondaryTiers[0], locality: '', deviceClass: undefined }] });
    expect(Object.keys(bare.secondary_tiers[0])).not.toContain('locality');
    expect(Object.keys(bare.secondary_tiers[0])).not.toContain('device_class');
    expect(Object.keys(kvOffloadHeaderBlock({ ...chain, secondaryTiers: [] }))).not.toContain('secondary_tiers');
  });

  it('reads observed_kv_metrics, and refuses unknown keys in either block at their line', () => {
    const header = (extra: string) => {
      const p = join(dir, `h-${extra.length}.yaml`);
      writeFileSync(p, `trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\n${extra}`);
      return p;
    };
    expect(readTraceV2Header(header('observed_kv_metrics:\n  source: tiered\n  hit_rate: 0.4\n  block_hits: 4\n  block_queries: 10\n')).observed_kv_metrics).toEqual({
      source: 'tiered',
      hit_rate: 0.4,
      block_hits: 4,
      block_queries: 10,
    });
    const p = header('kv_offload:\n  cpu_bytes_to_use: 1\n  colour: red\n');
    try {
      readTraceV2Header(p);
      throw new Error('expected a TraceReadError');
    } catch (e) {
      expect(e).toBeInstanceOf(TraceReadError);
      expect((e as TraceReadError).issues[0]).toEqual({ file: p, line: 7, field: 'kv_offload.colour', expected: "a key BLIS's TraceV2 header defines", found: 'unknown key "colour"' });
    }
  });
});
