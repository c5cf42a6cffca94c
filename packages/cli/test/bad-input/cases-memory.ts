import type { BadInputCase } from './bad-input-case.js';

// The memory estimate against the machine (docs/limits.md), with the machine's figure set by
// BLIS_MEMORY_LIMIT so the cases do not depend on the machine: what the estimate counts beyond
// the startup instances, and the commands that run simulations on workers.

const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const RUN = ['run', ...MODEL, '--num-requests', '5', '--total-kv-blocks', '1000'];
/** 135 MiB: one run of the sweep below (134 MiB) fits, two at once do not. */
const ONE_RUN = { BLIS_MEMORY_LIMIT: String(135 * 2 ** 20) };

const SWEEP = `base:
  latencyModel: blackbox
  workload: {kind: synthetic, numRequests: 5, rate: 10}
seeds: [1]
parameters:
  numInstances: [1, 4]
metrics: [ttft_p99_ms]
`;

export const cases: readonly BadInputCase[] = [
  {
    name: 'run: the CPU tier counted per instance',
    args: [...RUN, '--kv-cpu-blocks', '4000000'],
    // 4,000,000 blocks: 32 bytes each and a key index of 2^23 slots of 16 bytes (250.1 MiB).
    env: { BLIS_MEMORY_LIMIT: String(300 * 2 ** 20) },
    stderr: [
      'memory estimate: expected a run that fits in 300.0 MiB (BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway), found an estimated 378.2 MiB: KV cache 55.6 KiB (1 × 1000 blocks), CPU tier 250.1 MiB (1 × 4000000 blocks), instances 64.0 KiB, 5 requests 2.0 KiB, process 128.0 MiB',
    ],
    exactLines: true,
  },
  {
    name: 'run: the replicas autoscaling may add',
    args: [...RUN, '--autoscaler-enabled', '--autoscaler-max', '9000', '--total-kv-blocks', '100000'],
    env: { BLIS_MEMORY_LIMIT: String(2 ** 30) },
    stderr: [/^blis: memory estimate: expected a run that fits in 1\.0 GiB .*\(1 × 100000 blocks \+ 8999 × 100000 blocks autoscaled \(maxReplicas 9000\)\), instances 562\.5 MiB, /],
    exactLines: true,
  },
  {
    name: 'run: records of more requests than V8\'s heap holds, on a machine that holds them',
    // The machine's figure is set past the estimate: the heap is the limit passed. Before, such a
    // run was simulated for minutes and then aborted in JSON.stringify.
    args: [...RUN, '--num-requests', '50000000', '--results-path', '$DIR/r.json'],
    env: { BLIS_MEMORY_LIMIT: String(2 ** 50) },
    stderr: [
      /^blis: memory estimate: expected a run whose JavaScript objects fit in V8's heap of [\d.]+ [GM]iB \(Node's heap limit; --ignore-memory-limit runs anyway\), found an estimated 95\.4 GiB on the heap \(NODE_OPTIONS=--max-old-space-size=97792 would hold it\): instances 64\.0 KiB, 50000000 requests with their records 95\.4 GiB, process 32\.0 MiB$/,
    ],
    exactLines: true,
  },
  {
    name: 'replay: a trace without --max-requests counted by its records',
    args: ['replay', ...MODEL, '--total-kv-blocks', '1000', '--trace', '$DIR/t.jsonl'],
    files: { 't.jsonl': '{"timestamp": 0, "input_length": 10, "output_length": 5}\n'.repeat(4) },
    env: { BLIS_MEMORY_LIMIT: '1000' },
    stderr: [/^blis: memory estimate: expected a run that fits in 1000 bytes .*, 4 requests \(the records of \S+t\.jsonl, 228 bytes\) 1\.6 KiB, process 128\.0 MiB$/],
    exactLines: true,
  },
  {
    name: 'sweep: the largest candidate times the workers',
    args: ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv', '--workers', '4'],
    files: { 'sweep.yaml': SWEEP },
    env: ONE_RUN,
    stderr: [
      'candidate 1 (numInstances=4): expected runs that fit in 135.0 MiB with 2 at once (BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway; fewer --workers need less), found an estimated 141.7 MiB: 2 × 6.9 MiB for its runs and 128.0 MiB for the process (one run: KV cache 6.6 MiB (4 × 26312 blocks), instances 256.0 KiB, 5 requests 2.0 KiB, process 128.0 MiB)',
    ],
    exactLines: true,
  },
  {
    name: 'compare: the largest policy run times the workers',
    args: ['compare', '--latency-model', 'blackbox', '--num-requests', '5', '--num-instances', '4', '--policies', 'round-robin,least-loaded', '--workers', '2'],
    env: ONE_RUN,
    stderr: [/^blis: policy round-robin: expected runs that fit in 135\.0 MiB with 2 at once \(BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway; fewer --workers need less\), found an estimated 141\.7 MiB: /],
    exactLines: true,
  },
  {
    name: 'evaluate: a base config larger than the machine is the request\'s fault',
    args: ['evaluate', '--request', '$DIR/req.json'],
    files: {
      'req.json': JSON.stringify({
        protocol: 'blis-eval/1',
        candidate: { kind: 'policy-yaml', text: 'routing:\n  policy: round-robin\n' },
        base_config: { latencyModel: 'blackbox', numInstances: 4 },
        scenarios: [{ id: 'small', workload: { kind: 'synthetic', numRequests: 5, rate: 8 }, seeds: [1] }],
        objectives: { weights: { throughput: 1 } },
        trace: 'none',
      }),
    },
    env: { BLIS_MEMORY_LIMIT: String(130 * 2 ** 20) },
    stderr: [/^blis: \S+req\.json request\.scenarios\[0\].*expected a run that fits in 130\.0 MiB \(BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway\), found an estimated 134\.9 MiB/],
    exactLines: true,
  },
];
