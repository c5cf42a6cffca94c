import { describe, expect, it } from 'vitest';
import { type KVOffloadConfigResult, KVTierConfigError, parseKVOffloadConfig } from '../src/index.js';
import { resolveOffloadChain } from '../src/internal.js';

// parseKVOffloadConfig: BLIS's --kv-offload-config YAML (and a TraceV2 header's recorded block)
// as library config, every problem named by file, line and key. The CLI's kv-tiers tests pin
// the same messages end to end.

const TIER = '  secondary_tiers:\n    - type: fs\n      root_dir: /mnt/nvme\n      direct_io: true\n      device_class: nvme_gen4\n';
const FILE = `kv_offload:\n  cpu_bytes_to_use: 17179869184\n${TIER}`;

function issuesOf(r: KVOffloadConfigResult): string[] {
  if (r.ok) throw new Error('expected issues');
  return r.issues.map((i) => `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}: expected ${i.expected}, found ${i.found}`);
}

function configOf(r: KVOffloadConfigResult) {
  if (!r.ok) throw new Error(`unexpected issues: ${JSON.stringify(r.issues)}`);
  return r.config;
}

describe('parseKVOffloadConfig, a --kv-offload-config file', () => {
  it('returns BLIS\'s snake_case block as camelCase library config, with the schema\'s defaults in settings', () => {
    const c = configOf(parseKVOffloadConfig(FILE, 'offload.yaml'));
    expect(c.file).toBe('offload.yaml');
    expect(c.input).toEqual({ cpuBytesToUse: 17_179_869_184, secondaryTiers: [{ type: 'fs', rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4' }] });
    expect(c.settings.evictionPolicy).toBe('lru');
    expect(c.settings.offloadPromptOnly).toBe(true);
    expect(c.settings.secondaryTiers[0].nReadThreads).toBe(16);
  });

  it('locates a key of the block by its line, and the block itself', () => {
    const c = configOf(parseKVOffloadConfig(FILE, 'offload.yaml'));
    expect(c.locate(['secondary_tiers', 0, 'device_class'])).toEqual({ file: 'offload.yaml', line: 7, field: 'kv_offload.secondary_tiers[0].device_class' });
    expect(c.locate([])).toEqual({ file: 'offload.yaml', line: 2, field: 'kv_offload' });
  });

  it('names an unknown key, a camelCase key and a library-only pin with the keys BLIS accepts', () => {
    const r = parseKVOffloadConfig('kv_offload:\n  cpu_bytes_to_use: 17179869184\n  colour: red\n  offloadPromptOnly: false\n  per_block_bytes: 4096\n', 'f.yaml');
    const known = "expected a key of BLIS's kv_offload block (cpu_bytes_to_use, block_size, blocks_per_chunk, tokens_per_hash, eviction_policy, offload_prompt_only, self_describing_kv_events, store_threshold, secondary_tiers)";
    expect(issuesOf(r).sort()).toEqual([
      `f.yaml:3 kv_offload.colour: ${known}, found unknown key "colour"`,
      `f.yaml:4 kv_offload.offloadPromptOnly: ${known}, found unknown key "offloadPromptOnly"`,
      `f.yaml:5 kv_offload.per_block_bytes: ${known}, found unknown key "per_block_bytes"`,
    ]);
  });

  it('words the schema\'s own messages in the file\'s keys', () => {
    expect(issuesOf(parseKVOffloadConfig(`kv_offload:\n${TIER}`, 'f.yaml'))).toEqual([
      'f.yaml:2 kv_offload.cpu_bytes_to_use: expected a positive number of bytes per TP rank (required), found nothing',
    ]);
    const partial = parseKVOffloadConfig('kv_offload:\n  cpu_bytes_to_use: 1\n  secondary_tiers:\n    - type: fs\n      root_dir: /x\n      direct_io: true\n      read_bandwidth: 100\n', 'f.yaml');
    expect(issuesOf(partial)).toEqual([
      'f.yaml:4 kv_offload.secondary_tiers[0]: expected a device_class, or all three of read_bandwidth, write_bandwidth and base_latency, found only read_bandwidth',
    ]);
  });

  it('checks the block size against the GPU block size it is given', () => {
    const text = 'kv_offload:\n  cpu_bytes_to_use: 17179869184\n  block_size: 32\n';
    expect(configOf(parseKVOffloadConfig(text, 'f.yaml', { blockSizeTokens: 32 })).settings.blockSize).toBe(32);
    expect(issuesOf(parseKVOffloadConfig(text, 'f.yaml'))).toEqual([
      'f.yaml:3 kv_offload.block_size: expected the GPU block size 16 (32 tokens means blocks_per_chunk 2, which BLIS accepts and then panics on, so it is refused here), found 32',
    ]);
  });

  it('refuses a file without a kv_offload block, with other top-level keys, or with a block that is no mapping', () => {
    expect(issuesOf(parseKVOffloadConfig('cpu_bytes_to_use: 1\n', 'f.yaml'))).toEqual(["f.yaml:1: expected a top-level kv_offload: block (BLIS's --kv-offload-config format), found none"]);
    expect(issuesOf(parseKVOffloadConfig(`${FILE}extra: 1\n`, 'f.yaml'))).toEqual(['f.yaml:8 extra: expected only a top-level kv_offload: block, found unknown key "extra"']);
    expect(issuesOf(parseKVOffloadConfig('kv_offload: 3\n', 'f.yaml'))).toEqual(["f.yaml:1 kv_offload: expected a mapping of BLIS's kv_offload keys, found 3"]);
  });

  it('reports YAML syntax errors with the file and line', () => {
    const issues = issuesOf(parseKVOffloadConfig('kv_offload:\n  cpu_bytes_to_use: [1\n', 'f.yaml'));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^f\.yaml:\d+/);
  });

  it('resolves device_class from given device classes, in the tier\'s I/O regime, under its own figures', () => {
    const deviceClasses = {
      source: 'defaults.yaml',
      classes: { fast: { read_bandwidth: 100, write_bandwidth: 50, base_latency: 10, buffered_read_bandwidth: 200 }, nvme_gen4: { read_bandwidth: 1, write_bandwidth: 2, base_latency: 3 } },
    };
    const text = 'kv_offload:\n  cpu_bytes_to_use: 17179869184\n  secondary_tiers:\n    - { type: fs, root_dir: /a, direct_io: false, device_class: fast, write_bandwidth: 70 }\n    - { type: fs, root_dir: /b, direct_io: true, device_class: nvme_gen4 }\n';
    const c = configOf(parseKVOffloadConfig(text, 'f.yaml', { deviceClasses }));
    const [a, b] = c.input.secondaryTiers ?? [];
    // A class this build does not ship is spelt out; a shipped one keeps its name beside the file's figures.
    expect(a).toEqual({ type: 'fs', rootDir: '/a', directIo: false, readBandwidth: 200, writeBandwidth: 70, baseLatency: 10, saturationQueueDepth: 1, singleTransferFraction: 1, latencyJitterStddev: 0 });
    expect(b).toMatchObject({ deviceClass: 'nvme_gen4', readBandwidth: 1, writeBandwidth: 2, baseLatency: 3 });
    // The file's classes replace the shipped ones: a shipped class the file lacks is unknown.
    const unknown = parseKVOffloadConfig(text.replace('device_class: fast', 'device_class: sata_ssd'), 'f.yaml', { deviceClasses });
    expect(issuesOf(unknown)).toEqual(['f.yaml:4 kv_offload.secondary_tiers[0].device_class: expected a device class of defaults.yaml kv_offload_devices (fast, nvme_gen4), found "sata_ssd"']);
  });

  it('places a resolution error at its key\'s line', () => {
    const c = configOf(parseKVOffloadConfig('kv_offload:\n  cpu_bytes_to_use: 1000\n', 'small.yaml'));
    let error: unknown;
    try {
      resolveOffloadChain(c.settings, 2_097_152, 16, false);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KVTierConfigError);
    expect(c.issueOf(error as KVTierConfigError)).toEqual({
      file: 'small.yaml',
      line: 2,
      field: 'kv_offload.cpu_bytes_to_use',
      expected: "at least one block's worth of bytes (2097152 per block on one TP rank)",
      found: '1000',
    });
  });
});

describe('parseKVOffloadConfig, a TraceV2 header', () => {
  const header = (block: string) => `format: tracev2\nmode: generated\nkv_offload:\n${block}`;
  const recorded =
    '  cpu_bytes_to_use: 17179869184\n  per_block_bytes: 2097152\n  block_size: 16\n  blocks_per_chunk: 1\n  tokens_per_hash: 16\n  eviction_policy: lru\n  offload_prompt_only: true\n  self_describing_kv_events: false\n  secondary_tiers:\n    - { type: fs, root_dir: /x, n_read_threads: 16, n_write_threads: 16, enable_kv_events: false, direct_io: true, device_class: floppy, read_bandwidth: 7000, write_bandwidth: 5000, base_latency: 20, saturation_queue_depth: 1, single_transfer_fraction: 1, latency_jitter_stddev: 0 }\n';

  it('returns the config that replays the recorded chain: figures explicit, per-block size pinned', () => {
    const c = configOf(parseKVOffloadConfig(header(recorded), 'trace.yaml', { format: 'tracev2-header' }));
    expect(c.input.perBlockBytes).toBe(2_097_152);
    expect(c.input.secondaryTiers?.[0]).toMatchObject({ deviceClass: undefined, readBandwidth: 7000, writeBandwidth: 5000, baseLatency: 20 });
  });

  it('names a recorded chain the library cannot replay at the header\'s line', () => {
    const r = parseKVOffloadConfig(header(recorded.replace('eviction_policy: lru', 'eviction_policy: arc')), 'trace.yaml', { format: 'tracev2-header' });
    expect(issuesOf(r)).toEqual(['trace.yaml:9 kv_offload.eviction_policy: expected "lru" (BLIS accepts "arc" and then panics in its offload mechanism, so it is refused here), found "arc"']);
  });

  it('refuses a header without a kv_offload block', () => {
    expect(issuesOf(parseKVOffloadConfig('format: tracev2\n', 'trace.yaml', { format: 'tracev2-header' }))).toEqual([
      'trace.yaml:1: expected a kv_offload: block (the offload chain the trace was simulated with), found none',
    ]);
  });
});
