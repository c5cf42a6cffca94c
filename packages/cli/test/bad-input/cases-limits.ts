import type { BadInputCase } from './bad-input-case.js';
import { oneClientSpec } from './one-client-spec.js';

// Resource limits (docs/limits.md): sizes no machine could hold are refused before anything is
// allocated, naming the flag or the file, the limit and the value.

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];

/** A workload spec of `n` minimal clients. */
function spec(n: number): string {
  const head = 'version: "2"\nseed: 42\naggregate_rate: 10\nnum_requests: 5\nclients:\n';
  const client = (i: number) =>
    `  - id: "c${i}"\n    rate_fraction: 1\n    arrival:\n      process: poisson\n    input_distribution:\n      type: exponential\n      params:\n        mean: 64\n    output_distribution:\n      type: exponential\n      params:\n        mean: 16\n`;
  const parts = [head];
  for (let i = 0; i < n; i++) parts.push(client(i));
  return parts.join('');
}

/** 300,000 clients (70 MB): refused by its size before a byte is parsed. */
function hugeSpec(): Uint8Array {
  const one = Buffer.from(spec(1).slice(spec(0).length));
  const head = Buffer.from(spec(0));
  const n = 300_000;
  const out = Buffer.alloc(head.length + one.length * n);
  head.copy(out, 0);
  for (let i = 0; i < n; i++) one.copy(out, head.length + i * one.length);
  return out;
}

export const cases: readonly BadInputCase[] = [
  { name: '--total-kv-blocks 1e15', args: [...RUN, '--total-kv-blocks', '1e15'], stderr: ['--total-kv-blocks: expected at most 67108864 KV blocks per instance, found 1000000000000000'], exactLines: true },
  { name: '--total-kv-blocks 2^53-1', args: [...RUN, '--total-kv-blocks', '9007199254740991'], stderr: ['--total-kv-blocks: expected at most 67108864 KV blocks per instance, found 9007199254740991'], exactLines: true },
  {
    name: '--total-kv-blocks over the total of all instances',
    args: [...RUN, '--num-instances', '100', '--total-kv-blocks', '20000000'],
    stderr: ['--total-kv-blocks: expected at most 1073741824 KV blocks over all instances, found 100 instances × 20000000 blocks = 2000000000'],
    exactLines: true,
  },
  {
    name: '--block-size-in-tokens 1e12 (no block fits)',
    args: [...RUN, '--block-size-in-tokens', '1e12'],
    stderr: [/^blis: --block-size-in-tokens: expected at most 421007 tokens per block \(H100 × TP 1 at 0\.9 utilisation leaves 51\.4 GiB per GPU beside the weights of meta-llama\/llama-3\.1-8b-instruct and vLLM's reserves, 131072 bytes of KV per token per GPU\), found 1000000000000 \(0 KV blocks per instance\)$/],
    exactLines: true,
  },
  {
    name: '--block-size-in-tokens within the limit, still no block fits',
    args: [...RUN, '--block-size-in-tokens', '500000'],
    stderr: [/^blis: --block-size-in-tokens: expected at most 421007 tokens per block \(.*\), found 500000 \(0 KV blocks per instance\)$/],
    exactLines: true,
  },
  {
    name: '--block-size-in-tokens over the limit with --total-kv-blocks',
    args: [...RUN, '--block-size-in-tokens', '2000000', '--total-kv-blocks', '100'],
    stderr: ['--block-size-in-tokens: expected at most 1048576 tokens per block, found 2000000'],
    exactLines: true,
  },
  { name: '--num-instances 100000000', args: [...RUN, '--num-instances', '100000000'], stderr: ['--num-instances: expected at most 10000 instances, found 100000000'], exactLines: true },
  { name: '--num-requests 1e9', args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '1e9'], stderr: ['--num-requests: expected at most 100000000 requests, found 1000000000'], exactLines: true },
  { name: '--prompt-tokens-max 1e9', args: [...RUN, '--prompt-tokens-max', '1000000000'], stderr: ['--prompt-tokens-max: expected at most 16777216 tokens per request, found 1000000000'], exactLines: true },
  { name: '--output-tokens 1e8', args: [...RUN, '--output-tokens', '100000000', '--output-tokens-max', '100000000'], stderr: ['--output-tokens: expected at most 16777216 tokens per request, found 100000000', '--output-tokens-max: expected at most 16777216 tokens per request, found 100000000'], exactLines: true },
  {
    name: 'autoscaler max_replicas over the instance limit, from the policy file: the file named, not --autoscaler-max',
    args: [...RUN, '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': 'autoscaler:\n  interval_us: 1000000\n  max_replicas: 100000000\n' },
    stderr: [/^blis: \/.*\/policy\.yaml:3 autoscaler\.max_replicas: expected at most 10000 instances \(autoscaling included\), found 100000000 \(maxReplicas 100000000\)$/],
    exactLines: true,
  },
  {
    name: 'the same with --autoscaler-max given: the flag named',
    args: [...RUN, '--policy-config', '$DIR/policy.yaml', '--autoscaler-max', '50000'],
    files: { 'policy.yaml': 'autoscaler:\n  interval_us: 1000000\n  max_replicas: 100000000\n' },
    stderr: ['--autoscaler-max: expected at most 10000 instances (autoscaling included), found 50000 (maxReplicas 50000)'],
    exactLines: true,
  },
  {
    name: 'several limits at once, all reported',
    args: [...RUN, '--num-instances', '20000', '--total-kv-blocks', '1e9'],
    stderr: ['--num-instances: expected at most 10000 instances, found 20000', '--total-kv-blocks: expected at most 67108864 KV blocks per instance, found 1000000000'],
    exactLines: true,
  },
  {
    name: 'workload spec of 10,001 clients',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': () => spec(10_001) },
    stderr: [/^blis: \/.*\/spec\.yaml clients: expected at most 10000 clients, found 10001$/],
    exactLines: true,
  },
  {
    name: 'workload spec of 300,000 clients (70 MB)',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/huge.yaml'],
    files: { 'huge.yaml': hugeSpec },
    stderr: [/^blis: --workload-spec \/.*\/huge\.yaml: expected a workload spec of at most 8388608 bytes \(8 MiB; 10000 clients at most\), found \d+ bytes$/],
    exactLines: true,
  },
  {
    name: 'workload spec lifecycle window of trace_rate 1e20 (the per-window generator would draw 3e22 gaps first)',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: {
      'spec.yaml': () =>
        spec(1).replace('aggregate_rate: 10\nnum_requests: 5', 'aggregate_rate: 0\nhorizon: 1500000000') +
        '    lifecycle:\n      windows:\n        - {start_us: 0, end_us: 300000000, trace_rate: 1e20}\n',
    },
    stderr: [
      /^blis: \/.*\/spec\.yaml:20 clients\[0\]\.lifecycle\.windows\[0\]\.trace_rate: expected lifecycle windows of at most 100000000 requests in all \(rate × duration; the generator draws every gap of a window before its first request\), found 3\.00e\+22 requests up to this window$/,
    ],
    exactLines: true,
  },
  {
    name: 'workload spec num_requests 1e9',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': () => spec(1).replace('num_requests: 5', 'num_requests: 1000000000') },
    stderr: [/^blis: \/.*\/spec\.yaml num_requests: expected at most 100000000 requests, found 1000000000$/],
    exactLines: true,
  },
  {
    // Each part within the limit, the prompt they make together past it: caught where the request is made.
    name: 'workload spec whose prefix and prompt together pass the tokens-per-request limit',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': () => spec(1).replace('rate_fraction: 1\n', 'rate_fraction: 1\n    prefix_group: big\n    prefix_length: 16000000\n').replace('type: exponential\n      params:\n        mean: 64', 'type: constant\n      params:\n        value: 1000000') },
    stderr: [/^blis: \/.*\/spec\.yaml clients\[0\]\.input_distribution: expected lengths of at most 16777216 tokens per request, found 17000000 tokens \(request 0\)$/],
    exactLines: true,
  },
  {
    name: 'workload spec whose lengths pass the tokens-per-request limit',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': () => spec(1).replace('mean: 64', 'mean: 1000000000000') },
    // The spec's schema states the limit on a length it gives outright, at its line.
    stderr: [/^blis: \/.*\/spec\.yaml:\d+ clients\[0\]\.input_distribution\.params\.mean: expected a number <= 16777216, found 1000000000000$/],
    exactLines: true,
  },
  {
    name: 'blis replay --max-requests 1e9',
    args: ['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace', '$DIR/t.jsonl', '--max-requests', '1000000000'],
    files: { 't.jsonl': '{"timestamp": 0, "input_length": 10, "output_length": 5}\n' },
    stderr: ['--max-requests: expected at most 100000000 requests, found 1000000000'],
    exactLines: true,
  },
  {
    name: 'blis capacity with --num-instances over the limit',
    args: ['capacity', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5', '--target', 'ttft_p99=500ms', '--num-instances', '100000000'],
    stderr: ['--num-instances: expected at most 10000 instances, found 100000000'],
    exactLines: true,
  },
  {
    // Before, the search bracketed up to 8,192 instances (11 GB) and then blamed --num-instances.
    name: 'blis capacity --search instances with --max-instances over the instance limit',
    args: ['capacity', '--search', 'instances', '--max-instances', '1e8', '--latency-model', 'blackbox', '--num-requests', '5', '--target', 'ttft_p99=1ms'],
    stderr: ['--max-instances: expected at most 10000 instances (the most a run may have), found 100000000'],
    exactLines: true,
  },
  {
    name: 'blis capacity --search instances whose largest probe would not fit, refused before the first',
    args: ['capacity', '--search', 'instances', '--max-instances', '1024', '--latency-model', 'blackbox', '--num-requests', '5', '--total-kv-blocks', '1000', '--target', 'ttft_p99=1ms'],
    env: { BLIS_MEMORY_LIMIT: String(200 * 2 ** 20) },
    stderr: [
      '--max-instances 1024: expected a run that fits in 200.0 MiB (BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway), found an estimated 247.6 MiB: KV cache 55.6 MiB (1024 × 1000 blocks), instances 64.0 MiB, 5 requests 2.0 KiB, process 128.0 MiB',
    ],
    exactLines: true,
  },
  {
    // Windows that all close, or a run --horizon, would bound it (workload-cli.test.ts runs both).
    name: 'a spec that never ends: no num_requests, no horizon, a client without windows, no --horizon',
    args: ['run', '--latency-model', 'blackbox', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 10\n') },
    stderr: [
      /^blis: \S+spec\.yaml:1 num_requests: expected num_requests or horizon, a run --num-requests or --horizon, or lifecycle windows on every sending client \(an unbounded workload never ends\), found none; client "a" sends without windows$/,
    ],
    exactLines: true,
  },
];
