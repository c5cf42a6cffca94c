import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, beforeAll, describe, expect, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// The tiered KV flags of `blis run`, `blis replay` and `blis convert` through the process:
// --kv-cpu-blocks, --kv-transfer-*, --kv-offload-threshold, --kv-reload-recompute and the
// --kv-offload-config YAML (BLIS's kv_offload: block). Bad input exits 2 with nothing on stdout
// and one line per problem naming the flag, or the file, its line and the key.

const tmp = mkdtempSync(join(tmpdir(), 'blis-kv-tiers-'));



async function succeeds(expect: ExpectStatic, args: readonly string[]) {
  const r = await blis(args);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const RUN = ['run', '--num-requests', '5', '--quiet'];
const TIER = '  secondary_tiers:\n    - type: fs\n      root_dir: /mnt/nvme\n      direct_io: true\n      device_class: nvme_gen4\n';
const GOOD = file('good.yaml', `kv_offload:\n  cpu_bytes_to_use: 17179869184\n${TIER}`);
/** A kv_offload file: the good one with `line` (indented two) added after cpu_bytes_to_use. */
const withLine = (name: string, line: string) => file(name, `kv_offload:\n  cpu_bytes_to_use: 17179869184\n  ${line}\n${TIER}`);
const withTier = (name: string, tier: string) => file(name, `kv_offload:\n  cpu_bytes_to_use: 17179869184\n  secondary_tiers:\n    - ${tier.split('\n').join('\n      ')}\n`);

describe.concurrent('bad --kv-offload-config files and KV tier flags', () => {
  it.for<[string, readonly string[], string | RegExp]>([
    ['an unknown key', ['--kv-offload-config', withLine('unknown.yaml', 'colour: red')], `${tmp}/unknown.yaml:3 kv_offload.colour: expected a key of BLIS's kv_offload block (cpu_bytes_to_use, block_size, blocks_per_chunk, tokens_per_hash, eviction_policy, offload_prompt_only, self_describing_kv_events, store_threshold, secondary_tiers), found unknown key "colour"`],
    ['a camelCase key (BLIS\'s keys are snake_case)', ['--kv-offload-config', withLine('camel.yaml', 'offloadPromptOnly: false')], `${tmp}/camel.yaml:3 kv_offload.offloadPromptOnly: expected a key of BLIS's kv_offload block (cpu_bytes_to_use, block_size, blocks_per_chunk, tokens_per_hash, eviction_policy, offload_prompt_only, self_describing_kv_events, store_threshold, secondary_tiers), found unknown key "offloadPromptOnly"`],
    ['a derived key (per_block_bytes is not BLIS input)', ['--kv-offload-config', withLine('pbb.yaml', 'per_block_bytes: 4096')], /pbb\.yaml:3 kv_offload\.per_block_bytes: expected a key of BLIS's kv_offload block .*found unknown key "per_block_bytes"$/],
    ['a missing cpu_bytes_to_use', ['--kv-offload-config', file('nocpu.yaml', `kv_offload:\n${TIER}`)], `${tmp}/nocpu.yaml:2 kv_offload.cpu_bytes_to_use: expected a positive number of bytes per TP rank (required), found nothing`],
    ['a missing direct_io', ['--kv-offload-config', withTier('nodio.yaml', 'type: fs\nroot_dir: /x\ndevice_class: nvme_gen4')], `${tmp}/nodio.yaml:4 kv_offload.secondary_tiers[0].direct_io: expected true or false, set explicitly (direct and buffered I/O are different device regimes, and a simulator cannot probe the disk as vLLM does), found nothing`],
    ['blocks_per_chunk: 2', ['--kv-offload-config', withLine('bpc.yaml', 'blocks_per_chunk: 2')], `${tmp}/bpc.yaml:3 kv_offload.blocks_per_chunk: expected 1 (BLIS accepts chunks of several GPU blocks and then panics in its offload mechanism, so they are refused here), found 2`],
    ['block_size: 32 (two GPU blocks a chunk)', ['--kv-offload-config', withLine('bs.yaml', 'block_size: 32')], `${tmp}/bs.yaml:3 kv_offload.block_size: expected the GPU block size 16 (32 tokens means blocks_per_chunk 2, which BLIS accepts and then panics on, so it is refused here), found 32`],
    ['eviction_policy: arc', ['--kv-offload-config', withLine('arc.yaml', 'eviction_policy: arc')], `${tmp}/arc.yaml:3 kv_offload.eviction_policy: expected "lru" (BLIS accepts "arc" and then panics in its offload mechanism, so it is refused here), found "arc"`],
    ['store_threshold: 2', ['--kv-offload-config', withLine('st.yaml', 'store_threshold: 2')], `${tmp}/st.yaml:3 kv_offload.store_threshold: expected 0 or 1 (both change nothing on the multi-tier path; vLLM's tiering offload refuses 2 or more, and a negative threshold means nothing), found 2`],
    ['type: obj', ['--kv-offload-config', withTier('obj.yaml', 'type: obj\nroot_dir: /x\ndirect_io: true\ndevice_class: s3')], `${tmp}/obj.yaml:4 kv_offload.secondary_tiers[0].type: expected "fs" (BLIS represents only filesystem tiers; obj, p2p and example are not supported), found "obj"`],
    ['an unknown device class', ['--kv-offload-config', withTier('cls.yaml', 'type: fs\nroot_dir: /x\ndirect_io: true\ndevice_class: floppy')], `${tmp}/cls.yaml:7 kv_offload.secondary_tiers[0].device_class: expected a known device class (nvme_gen4, nvme_gen3, sata_ssd, cpu_dram, s3), found "floppy"`],
    ['a tier with neither class nor figures', ['--kv-offload-config', withTier('nofig.yaml', 'type: fs\nroot_dir: /x\ndirect_io: true\nread_bandwidth: 100')], `${tmp}/nofig.yaml:4 kv_offload.secondary_tiers[0]: expected a device_class, or all three of read_bandwidth, write_bandwidth and base_latency, found only read_bandwidth`],
    ['a non-positive read bandwidth', ['--kv-offload-config', withTier('bw.yaml', 'type: fs\nroot_dir: /x\ndirect_io: true\ndevice_class: nvme_gen4\nread_bandwidth: 0')], `${tmp}/bw.yaml:8 kv_offload.secondary_tiers[0].read_bandwidth: expected a number > 0, found 0`],
    ['a CPU budget under one block', ['--kv-offload-config', file('small.yaml', 'kv_offload:\n  cpu_bytes_to_use: 1000\n')], `${tmp}/small.yaml:2 kv_offload.cpu_bytes_to_use: expected at least one block's worth of bytes (2097152 per block on one TP rank), found 1000`],
    ['no top-level kv_offload block', ['--kv-offload-config', file('top.yaml', 'cpu_bytes_to_use: 1000\n')], `${tmp}/top.yaml:1: expected a top-level kv_offload: block (BLIS's --kv-offload-config format), found none`],
    ['a model without a config.json', ['--model', 'microsoft/phi-4', '--kv-offload-config', GOOD], `${GOOD}:2 kv_offload: expected a model config (Hugging Face config.json) to size offload blocks from the model's KV bytes per token for microsoft/phi-4 (give --model-config), found none (the catalogue has no config.json for the model, and none was given)`],
    ['both --kv-cpu-blocks and --kv-offload-config', ['--kv-cpu-blocks', '64', '--kv-offload-config', GOOD], '--kv-offload-config: expected no --kv-cpu-blocks beside it (the legacy CPU tier and the offload chain are distinct models; set only one), found --kv-cpu-blocks 64'],
    ['a zero transfer bandwidth', ['--kv-cpu-blocks', '64', '--kv-transfer-bandwidth', '0'], '--kv-transfer-bandwidth: expected a positive number, found "0"'],
    ['a negative transfer bandwidth', ['--kv-transfer-bandwidth', '-5'], '--kv-transfer-bandwidth: expected a positive number, found "-5"'],
    ['a negative base latency', ['--kv-transfer-base-latency', '-1'], '--kv-transfer-base-latency: expected a non-negative integer, found "-1"'],
    ['an offload threshold above 1', ['--kv-offload-threshold', '1.5'], '--kv-offload-threshold: expected a number in [0, 1], found "1.5"'],
    ['negative CPU blocks', ['--kv-cpu-blocks', '-3'], '--kv-cpu-blocks: expected a non-negative integer, found "-3"'],
  ])('%s', ([, flags, message], { expect }) => rejects(expect, [...RUN, ...flags], message));

  it('reports every problem of a file at once, each at its line', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--kv-offload-config', file('many.yaml', 'kv_offload:\n  blocks_per_chunk: 2\n  eviction_policy: arc\n  secondary_tiers:\n    - type: obj\n      root_dir: /x\n')],
      /many\.yaml:2 kv_offload\.cpu_bytes_to_use: expected a positive number/,
      /many\.yaml:2 kv_offload\.blocks_per_chunk: expected 1 /,
      /many\.yaml:3 kv_offload\.eviction_policy: expected "lru" /,
      /many\.yaml:5 kv_offload\.secondary_tiers\[0\]\.type: expected "fs" /,
      /many\.yaml:5 kv_offload\.secondary_tiers\[0\]\.direct_io: expected true or false/,
    ));
});

describe.concurrent('good KV tier flags', () => {
  it('an offload chain from --kv-offload-config resolves (KV-2: 8192 CPU blocks of 2,097,152 bytes) and runs', async ({ expect }) => {
    const r = await succeeds(expect, ['run', '--num-requests', '5', '--kv-offload-config', GOOD]);
    expect(JSON.parse(r.stdout).completed_requests).toBe(5);
    expect(r.stderr).toContain('blis: KV tiers: offload chain per instance: 8192 CPU blocks of 2097152 bytes, then nvme_gen4\n');
  });

  it('--tp 2 halves the block bytes and doubles the blocks', async ({ expect }) => {
    const r = await succeeds(expect, ['run', '--num-requests', '5', '--tp', '2', '--kv-offload-config', GOOD]);
    expect(r.stderr).toContain('16384 CPU blocks of 1048576 bytes');
  });

  it('--kv-cpu-blocks gives the legacy CPU tier; an explicit --kv-offload-threshold warns that it is ignored', async ({ expect }) => {
    const r = await succeeds(expect, ['run', '--num-requests', '5', '--kv-cpu-blocks', '256', '--kv-transfer-bandwidth', '4', '--kv-transfer-base-latency', '10', '--kv-offload-threshold', '0.5', '--kv-reload-recompute']);
    expect(JSON.parse(r.stdout).completed_requests).toBe(5);
    expect(r.stderr).toContain('blis: warning: --kv-offload-threshold is deprecated and ignored, as in BLIS (the CPU tier mirrors every full block; no threshold applies)\n');
    expect(r.stderr).toContain('blis: KV tiers: CPU tier of 256 blocks per instance (legacy mirror), reloads 10 µs + ceil(block / 4) µs per block\n');
  });

  it('without tiers the threshold says nothing and no tier line is printed', async ({ expect }) => {
    const r = await succeeds(expect, ['run', '--num-requests', '5', '--kv-offload-threshold', '0.5']);
    expect(r.stderr).not.toMatch(/threshold|KV tiers/);
  });
});

describe('TraceV2 kv_offload on convert and replay (INV-13)', () => {
  const off = join(tmp, 'off');
  const plain = join(tmp, 'plain');
  beforeAll(async () => {
    const a = await blis(['convert', '--num-requests', '10', '--output', off, '--kv-offload-config', GOOD]);
    const b = await blis(['convert', '--num-requests', '10', '--output', plain]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    copyFileSync(`${plain}.csv`, join(tmp, 'real.csv'));
    writeFileSync(join(tmp, 'real.yaml'), 'trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\n');
    copyFileSync(`${plain}.csv`, join(tmp, 'tiered.csv'));
    writeFileSync(join(tmp, 'tiered.yaml'), 'trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\nobserved_kv_metrics:\n  source: tiered\n  hit_rate: 0.5\n  block_hits: 5\n  block_queries: 10\n');
  });

  it('convert --kv-offload-config records the resolved chain in the header, with per_block_bytes and the figures', () => {
    const text = readFileSync(`${off}.yaml`, 'utf8');
    expect(text).toContain('mode: generated\n');
    expect(text).toContain(
      'kv_offload:\n  cpu_bytes_to_use: 17179869184\n  per_block_bytes: 2097152\n  block_size: 16\n  blocks_per_chunk: 1\n  tokens_per_hash: 16\n  eviction_policy: lru\n  offload_prompt_only: true\n  self_describing_kv_events: false\n  secondary_tiers:\n    - type: fs\n      root_dir: /mnt/nvme\n      n_read_threads: 16\n      n_write_threads: 16\n      enable_kv_events: false\n      direct_io: true\n      device_class: nvme_gen4\n      read_bandwidth: 7000\n      write_bandwidth: 5000\n      base_latency: 80\n      saturation_queue_depth: 1\n      single_transfer_fraction: 1\n      latency_jitter_stddev: 0\n',
    );
    expect(readFileSync(`${plain}.yaml`, 'utf8')).not.toContain('kv_offload');
  });

  it('replay takes the chain from the header, and accepts the same --kv-offload-config', async () => {
    const fromHeader = await succeeds(expect, ['replay', '--trace', `${off}.yaml`]);
    expect(fromHeader.stderr).toContain('blis: KV tiers: offload chain per instance: 8192 CPU blocks of 2097152 bytes, then nvme_gen4\n');
    const same = await succeeds(expect, ['replay', '--trace', `${off}.yaml`, '--kv-offload-config', GOOD]);
    expect(same.stdout).toBe(fromHeader.stdout);
  });

  it('replay refuses a --kv-offload-config that differs from the header, naming each key in both files', () =>
    rejects(
      expect,
      ['replay', '--quiet', '--trace', `${off}.yaml`, '--kv-offload-config', withLine('differs.yaml', 'offload_prompt_only: false')],
      `${tmp}/differs.yaml:3 kv_offload.offload_prompt_only: expected true, the trace header's value (${off}.yaml:12 kv_offload.offload_prompt_only; on replay the header is authoritative: omit --kv-offload-config or match it), found false`,
    ));

  it('replay refuses adding an offload config to a simulated trace', () =>
    rejects(
      expect,
      ['replay', '--quiet', '--trace', `${plain}.yaml`, '--kv-offload-config', GOOD],
      `--kv-offload-config ${GOOD}: expected no offload config for a simulated trace (${plain}.yaml has mode "generated" and no kv_offload block; BLIS lets a replay add one only to an observed trace, mode real), found a kv_offload block`,
    ));

  it('replay accepts an offload config for an observed trace (mode real)', async () => {
    const r = await succeeds(expect, ['replay', '--trace', join(tmp, 'real.yaml'), '--kv-offload-config', GOOD]);
    expect(r.stderr).toContain('8192 CPU blocks of 2097152 bytes');
  });

  it('replay of a tiered observed hit rate needs an offload config', async () => {
    await rejects(
      expect,
      ['replay', '--quiet', '--trace', join(tmp, 'tiered.yaml')],
      `${tmp}/tiered.yaml:6 observed_kv_metrics.source: expected a --kv-offload-config matching the observed deployment (this hit rate comes from vLLM's tiered offload counters, and a GPU-only replay is not comparable with it), found "tiered" and no offload config`,
    );
    await succeeds(expect, ['replay', '--quiet', '--trace', join(tmp, 'tiered.yaml'), '--kv-offload-config', GOOD]);
  });

  it('replay refuses --kv-cpu-blocks beside a header chain', () =>
    rejects(
      expect,
      ['replay', '--quiet', '--trace', `${off}.yaml`, '--kv-cpu-blocks', '10'],
      `--kv-cpu-blocks: expected 0 with a trace whose header records an offload chain (${off}.yaml:6 kv_offload; the legacy CPU tier and the offload chain are distinct models), found 10`,
    ));

  it('replay refuses a header chain it cannot reproduce, at the header\'s line', async () => {
    writeFileSync(join(tmp, 'arc.yaml.tmp'), readFileSync(`${off}.yaml`, 'utf8').replace('eviction_policy: lru', 'eviction_policy: arc'));
    copyFileSync(join(tmp, 'arc.yaml.tmp'), join(tmp, 'arch.yaml'));
    copyFileSync(`${off}.csv`, join(tmp, 'arch.csv'));
    await rejects(
      expect,
      ['replay', '--quiet', '--trace', join(tmp, 'arch.yaml')],
      `${tmp}/arch.yaml:11 kv_offload.eviction_policy: expected "lru" (BLIS accepts "arc" and then panics in its offload mechanism, so it is refused here), found "arc"`,
    );
  });

  it('convert refuses --model without --kv-offload-config (it reads the model only to size offload blocks)', () =>
    rejects(expect, ['convert', '--num-requests', '3', '--output', join(tmp, 'x'), '--model', 'qwen/qwen3-14b'], '--model: expected --kv-offload-config beside it (convert reads the model only to size offload blocks), found "qwen/qwen3-14b"'));
});
