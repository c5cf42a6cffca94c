import type { BadInputCase } from './bad-input-case.js';

// Readers that once printed zod's own words, a hand-rolled translation or a whole value: each now
// says `expected <words>, found <excerpt>` through the one zod translator, paths with [n].

const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const RUN = ['run', ...MODEL, '--num-requests', '5'];

const KV_OFFLOAD = `kv_offload:
  cpu_bytes_to_use: 1000000000
  block_size: [16, 32]
  secondary_tiers:
    - type: fs
      root_dir: /x
      direct_io: true
      device_class: nvme_gen4
      read_bandwidth: "${'f'.repeat(3000)}"
`;

const metrics = (id: string) => ({ instance_id: id, completed_requests: 1, injected_requests: 1, preemption_count: 0, dropped_unservable: 0, timed_out_requests: 0, rejected_requests: 0, cache_hit_rate: 0 });
/** A `blis run --results-path` file whose first request's ttft_ms is a list and itl_ms a long string. */
const RESULT = JSON.stringify({
  ...metrics('cluster'),
  vllm_estimated_duration_s: 1,
  instances: [metrics('i0')],
  target_distribution: { i0: 1 },
  requests: [{ request_id: '0', arrival_ms: 0, handled_by: 'i0', ttft_ms: [1, 2], itl_ms: 'n'.repeat(1000), e2e_ms: 2 }],
});

const TWO_CLIENTS = `version: "2"
aggregate_rate: 10
num_requests: 20
clients:
${['a', 'b'].map((id) => `  - id: ${id}\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 8}}\n`).join('')}`;

/** A sweep whose parameters name list positions both ways; the second sets a negative rate fraction. */
const SWEEP = `base:
  model: meta-llama/llama-3.1-8b-instruct
  workload: {kind: spec, path: w.yaml}
parameters:
  workload.spec.clients[0].rate_fraction: [1]
  workload.spec.clients.1.rate_fraction: [-1]
metrics: [responses_per_sec, ttft_p99]
`;

export const cases: readonly BadInputCase[] = [
  {
    name: 'a --kv-offload-config with a list and a long string where numbers belong',
    args: [...RUN, '--kv-offload-config', '$DIR/kv.yaml'],
    files: { 'kv.yaml': KV_OFFLOAD },
    stderr: [
      /^blis: \S+kv\.yaml:3 kv_offload\.block_size: expected a number, found a list of 2 item\(s\)$/,
      /^blis: \S+kv\.yaml:9 kv_offload\.secondary_tiers\[0\]\.read_bandwidth: expected a number, found "f{60}…" \(3000 characters\)$/,
    ],
    exactLines: true,
    maxStderrBytes: 400,
  },
  {
    name: 'a result file with a list and a long string where numbers belong',
    args: ['report', '$DIR/r.json', '--output', '$DIR/out.html'],
    files: { 'r.json': RESULT },
    stderr: [
      /^blis: \S+r\.json requests\[0\]\.ttft_ms: expected a number \(a blis run result\), found a list of 2 item\(s\)$/,
      /^blis: \S+r\.json requests\[0\]\.itl_ms: expected a number \(a blis run result\), found "n{60}…" \(1000 characters\)$/,
    ],
    exactLines: true,
    maxStderrBytes: 400,
  },
  {
    name: 'an empty blis calibrate file flag is worded by the translator, not zod',
    args: ['calibrate', '--trace-header', '', '--trace-data', '$DIR/d.csv', '--sim-results', '$DIR/s.json', '--report', '$DIR/r.json', '--warmup-requests', 'x'],
    stderr: ['--trace-header: expected a string with >= 1 character(s), found ""', '--warmup-requests: expected -1 (the header\'s) or a non-negative integer, found "x"'],
    exactLines: true,
  },
  {
    name: 'a --model-config config.json with a text where a number belongs',
    args: [...RUN, '--latency-model', 'roofline', '--hardware', 'H100', '--model-config', '$DIR/config.json'],
    files: { 'config.json': JSON.stringify({ num_hidden_layers: 'many', hidden_size: 4096, num_attention_heads: 32 }) },
    stderr: [/^blis: \S+config\.json num_hidden_layers: expected a number, found "many"$/],
    exactLines: true,
  },
  {
    name: 'a --hardware-config with a bad GPU field',
    args: [...RUN, '--latency-model', 'roofline', '--hardware', 'H100', '--hardware-config', '$DIR/hw.json'],
    files: { 'hw.json': JSON.stringify({ H100: { TFlopsPeak: 989, BwPeakTBs: 3.35, mfuPrefill: 0.5, mfuDecode: [0.3], MemoryGiB: 80 } }) },
    stderr: [/^blis: \S+hw\.json H100\.mfuDecode: expected a number, found a list of 1 item\(s\)$/],
    exactLines: true,
  },
  {
    name: 'a sweep metric and a spec field a parameter sets are named at their lines, list positions in brackets',
    args: ['sweep', '$DIR/s.yaml', '--output', '$DIR/out.csv'],
    files: { 's.yaml': SWEEP, 'w.yaml': TWO_CLIENTS },
    stderr: [/^blis: \S+s\.yaml:7 metrics\[1\]: expected one of ttft_p99_ms, .*, found "ttft_p99"$/],
    exactLines: true,
  },
  {
    name: 'a spec field set by a sweep parameter names the parameter and its line',
    args: ['sweep', '$DIR/s.yaml', '--output', '$DIR/out.csv'],
    files: { 's.yaml': SWEEP.replace(', ttft_p99]', ']'), 'w.yaml': TWO_CLIENTS },
    stderr: [
      /^blis: \S+s\.yaml:6 parameters\.workload\.spec\.clients\.1\.rate_fraction, candidate 0 \(workload\.spec\.clients\[0\]\.rate_fraction=1, workload\.spec\.clients\.1\.rate_fraction=-1\): expected a number >= 0, found -1$/,
    ],
    exactLines: true,
  },
  {
    name: '--policy-param refuses hex and infinite numbers, naming the flag, the key and the list item',
    args: [...RUN, '--policy-param', 'routing.alpha=0x10', '--policy-param', 'routing.tiers=[1, .inf]'],
    stderr: [
      "--policy-param routing.alpha: expected a decimal number (16, 0.5, 1e3; quote the value, '0x10', for a string), found \"0x10\"",
      "--policy-param routing.tiers[1]: expected a decimal number (16, 0.5, 1e3; quote the value, '0x10', for a string), found \".inf\"",
    ],
    exactLines: true,
  },
  {
    name: '--policy-param quotes a long bad value as an excerpt',
    args: [...RUN, '--policy-param', `routing.alpha=0x${'f'.repeat(5000)}`],
    stderr: [`--policy-param routing.alpha: expected a decimal number (16, 0.5, 1e3; quote the value, '0x10', for a string), found "0x${'f'.repeat(58)}…" (5002 characters)`],
    exactLines: true,
    maxStderrBytes: 300,
  },
];
