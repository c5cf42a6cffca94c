import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// `--defaults-filepath`: a BLIS defaults.yaml in place of the shipped catalogue, held to what
// BLIS f90a1e3a computes with the same file (fixtures/blis-head-defaults-file/README.md).

const FX = join(import.meta.dirname, 'fixtures', 'blis-head-defaults-file');
const fx = (name: string) => join(FX, name);
const DEFAULTS = fx('defaults.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'blis-defaults-file-'));
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

async function metrics(args: readonly string[]): Promise<string> {
  const out = join(tmp, `m-${Math.random().toString(36).slice(2)}.json`);
  const r = await blis([...args, '--metrics-path', out, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

describe('--defaults-filepath: BLIS parity', () => {
  it('run: the model\'s GPU and TP, the trained-physics coefficients and a changed preset come from the file', async () => {
    const args = ['run', '--defaults-filepath', DEFAULTS, '--model', 'qwen/qwen3-14b', '--workload', 'chatbot', '--rate', '20', '--num-requests', '80'];
    expect(await metrics(args)).toBe(readFileSync(fx('chatbot.json'), 'utf8'));
    // The same deployment from the catalogue: BLIS HEAD's coefficients and chatbot lengths differ.
    const catalogue = await metrics(['run', '--model', 'qwen/qwen3-14b', '--hardware', 'A100-80', '--tp', '2', '--workload', 'chatbot', '--rate', '20', '--num-requests', '80']);
    expect(JSON.parse(catalogue).total_input_tokens).not.toBe(JSON.parse(readFileSync(fx('chatbot.json'), 'utf8')).total_input_tokens);
  });

  it('replay: the file\'s GPU, TP and coefficients', async () => {
    const args = ['replay', '--defaults-filepath', DEFAULTS, '--model', 'qwen/qwen3-14b', '--trace-header', fx('chatbot-trace.yaml'), '--trace-data', fx('chatbot-trace.csv')];
    expect(await metrics(args)).toBe(readFileSync(fx('chatbot-replay.json'), 'utf8'));
  });

  it('run: a preset only the file has, with a prefix', async () => {
    const ours = JSON.parse(await metrics(['run', '--defaults-filepath', DEFAULTS, '--model', 'qwen/qwen3-14b', '--workload', 'tiny', '--rate', '10', '--num-requests', '50']));
    const theirs = JSON.parse(readFileSync(fx('tiny.json'), 'utf8'));
    // cache_hit_rate differs by a hair with a shared prefix with or without a defaults file (the
    // same flags as length flags give the same gap); every request's record is BLIS's.
    expect(Math.abs(ours.cache_hit_rate - theirs.cache_hit_rate)).toBeLessThan(0.001);
    expect({ ...ours, cache_hit_rate: 0 }).toEqual({ ...theirs, cache_hit_rate: 0 });
  });

  it('run: the file\'s lora: block sets the adapter costs --lora-config leaves out', async () => {
    const args = ['run', '--defaults-filepath', DEFAULTS, '--model', 'qwen/qwen3-14b', '--workload-spec', fx('lora-spec.yaml'), '--lora-config', fx('lora-adapters.yaml'), '--lora-adapter-capacity', '2', '--num-instances', '2', '--total-kv-blocks', '7463'];
    expect(await metrics(args)).toBe(readFileSync(fx('lora-cap2-rr.json'), 'utf8'));
  });
});

describe('--defaults-filepath: KV offload device classes', () => {
  const base = ['run', '--model', 'qwen/qwen3-14b', '--total-kv-blocks', '1000', '--workload-spec', join(import.meta.dirname, 'fixtures', 'blis-head-multiturn', 'regression_workload_multiturn.yaml'), '--num-requests', '300'];
  it('a tier\'s device_class is the file\'s class, its buffered figures for direct_io: false', async () => {
    const viaClass = await metrics([...base, '--defaults-filepath', DEFAULTS, '--kv-offload-config', fx('offload.yaml')]);
    // slow_disk spelt out: buffered read 20 (its buffered_read_bandwidth), write 30, latency 5000.
    const explicit = file('explicit.yaml', 'kv_offload:\n  cpu_bytes_to_use: 268435456\n  secondary_tiers:\n    - type: fs\n      root_dir: /mnt/slow\n      direct_io: false\n      read_bandwidth: 20\n      write_bandwidth: 30\n      base_latency: 5000\n');
    expect(viaClass).toBe(await metrics([...base, '--defaults-filepath', DEFAULTS, '--kv-offload-config', explicit]));
    const fast = file('fast.yaml', readFileSync(fx('offload.yaml'), 'utf8').replace('slow_disk', 'nvme_gen4'));
    expect(viaClass).not.toBe(await metrics([...base, '--defaults-filepath', DEFAULTS, '--kv-offload-config', fast]));
  });

  it('a class the file lacks is an error naming the file\'s classes', () => {
    const cls = file('floppy.yaml', readFileSync(fx('offload.yaml'), 'utf8').replace('slow_disk', 'sata_ssd'));
    return rejects(expect, [...base, '--defaults-filepath', DEFAULTS, '--kv-offload-config', cls], `${cls}:7 kv_offload.secondary_tiers[0].device_class: expected a device class of ${DEFAULTS} kv_offload_devices (nvme_gen4, slow_disk), found "sata_ssd"`);
  });
});

describe('--defaults-filepath: bad input', () => {
  const run = (path: string, ...more: string[]) => ['run', '--defaults-filepath', path, '--model', 'qwen/qwen3-14b', '--num-requests', '5', ...more];
  const good = readFileSync(DEFAULTS, 'utf8');

  it('a missing file', () => rejects(expect, run(join(tmp, 'nope.yaml')), `--defaults-filepath ${join(tmp, 'nope.yaml')}: expected a readable BLIS defaults.yaml, found ENOENT (no such file or directory)`));

  it('an unknown section', () => {
    const p = file('unknown.yaml', `${good}models: {}\n`);
    return rejects(expect, run(p), new RegExp(`^blis: ${p}:\\d+ models: expected a section of BLIS's defaults.yaml \\(defaults, version, workloads, trained_physics_coefficients, lora, kv_offload_devices\\), found unknown field "models"$`));
  });

  it('a misspelt key and a wrong type in a model\'s entry', () => {
    const p = file('model.yaml', 'defaults:\n  qwen/qwen3-14b:\n    gpu: H100\n    tensor_parallelism: two\n');
    return rejects(expect, run(p), `${p}:4 defaults.qwen/qwen3-14b.tensor_parallelism: expected a non-negative integer, found "two"`, `${p}:3 defaults.qwen/qwen3-14b.gpu: expected a known field, found unknown field "gpu"`);
  });

  it('trained-physics coefficients of the wrong count and sign', () => {
    const p = file('tp.yaml', 'defaults:\n  qwen/qwen3-14b: {GPU: H100, tensor_parallelism: 1}\ntrained_physics_coefficients:\n  alpha_coeffs: [1, 2]\n  beta_coeffs: [1, 2, 3, -4, 5, 6, 7]\n');
    return rejects(expect, run(p), `${p}:4 trained_physics_coefficients.alpha_coeffs: expected exactly 3 alpha coefficients, found a list of 2 item(s)`, `${p}:5 trained_physics_coefficients.beta_coeffs[3]: expected a finite non-negative coefficient, found -4`);
  });

  it('a preset with a fractional length and an unknown field', () => {
    const p = file('preset.yaml', 'workloads:\n  chat:\n    prompt_tokens: 10.5\n    prompt_token_stdev: 3\n');
    return rejects(expect, run(p, '--hardware', 'H100', '--tp', '1'), `${p}:3 workloads.chat.prompt_tokens: expected a non-negative whole number of tokens, found 10.5`, `${p}:4 workloads.chat.prompt_token_stdev: expected a known field, found unknown field "prompt_token_stdev"`);
  });

  it('a lora: block value out of range', () => {
    const p = file('lora.yaml', 'lora:\n  load_bandwidth_bytes_us: 0\n  step_overhead_tiers:\n    zero: {k6: 1, k7: 1}\n');
    return rejects(expect, run(p, '--hardware', 'H100', '--tp', '1'), `${p}:2 lora.load_bandwidth_bytes_us: expected a load bandwidth > 0 bytes/µs, found 0`, `${p}:4 lora.step_overhead_tiers.zero: expected a rank key that is an integer > 0, found "zero"`);
  });

  it('a model the file has no GPU and TP for, without --hardware and --tp', () => {
    const p = file('nomodel.yaml', 'defaults:\n  other/model: {GPU: H100, tensor_parallelism: 1}\n');
    return rejects(expect, run(p), `--defaults-filepath ${p}: expected a defaults: entry with the GPU and tensor_parallelism of qwen/qwen3-14b (or --hardware and --tp), found no entry for qwen/qwen3-14b`);
  });

  it("a model's GPU and TP from the file are named at the file's line when wrong", () => {
    const p = file('badgpu.yaml', 'defaults:\n  qwen/qwen3-14b:\n    GPU: B200\n    tensor_parallelism: 3\n');
    return rejects(
      expect,
      run(p),
      `${p}:3 defaults.qwen/qwen3-14b.GPU: expected one of A100-80, A100-SXM, H100, L40S (or a GPU from --hardware-config), found "B200"`,
      `${p}:4 defaults.qwen/qwen3-14b.tensor_parallelism: expected a divisor of the 40 attention heads of qwen/qwen3-14b (1, 2, 4, 5, 8, 10, 20, 40), found 3`,
    );
  });

  it('a file without trained-physics coefficients under trained-physics', () => {
    const p = file('nocoef.yaml', 'defaults:\n  qwen/qwen3-14b: {GPU: H100, tensor_parallelism: 1}\n');
    return rejects(expect, run(p), `--defaults-filepath ${p}: expected trained_physics_coefficients for the trained-physics latency model (or --alpha-coeffs and --beta-coeffs), found none`);
  });

  it('a preset the file lacks', () =>
    rejects(expect, run(DEFAULTS, '--workload', 'summarization', '--rate', '1'), `--workload: expected a preset of ${DEFAULTS}: chatbot, tiny, found "summarization"`));

  it('observe refuses a bad file before sending anything', () => {
    const p = file('obs.yaml', 'workloads: [1, 2]\n');
    return rejects(expect, ['observe', '--server-url', 'http://127.0.0.1:1', '--model', 'm', '--rate', '1', '--num-requests', '1', '--trace-header', join(tmp, 'h.yaml'), '--trace-data', join(tmp, 'd.csv'), '--defaults-filepath', p], `${p}:1 workloads: expected a mapping, found a list of 2 item(s)`);
  });
});

describe('blis observe --defaults-filepath', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        if (req.method === 'GET') return void res.writeHead(404).end();
        const b = JSON.parse(raw) as { max_tokens: number; prompt: string };
        res.end(JSON.stringify({ choices: [{ text: 'x', finish_reason: 'length' }], usage: { prompt_tokens: b.prompt.trim().split(/\s+/).length, completion_tokens: b.max_tokens } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  it('sends the lengths of the file\'s preset', async () => {
    const d = join(tmp, 'obs.csv');
    const r = await blis(['observe', '--server-url', url, '--model', 'm', '--no-streaming', '--workload', 'tiny', '--rate', '200', '--num-requests', '30', '--defaults-filepath', DEFAULTS, '--trace-header', join(tmp, 'obs.yaml'), '--trace-data', d]);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = readFileSync(d, 'utf8').trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => rows.map((row) => Number(row[head.indexOf(name)]));
    // tiny: a 40-token prefix, prompts in [50, 150] behind it, answers in [10, 100].
    expect(col('prefix_length').every((n) => n === 40)).toBe(true);
    expect(col('input_tokens').every((n) => n >= 50 && n <= 150)).toBe(true);
    expect(col('output_tokens').every((n) => n >= 10 && n <= 100)).toBe(true);
    await rejects(expect, ['observe', '--server-url', url, '--model', 'm', '--workload', 'chatbotx', '--rate', '1', '--num-requests', '1', '--defaults-filepath', DEFAULTS, '--trace-header', join(tmp, 'x.yaml'), '--trace-data', join(tmp, 'x.csv')], `--workload: expected a preset of ${DEFAULTS}: chatbot, tiny, found "chatbotx"`);
  });
});
