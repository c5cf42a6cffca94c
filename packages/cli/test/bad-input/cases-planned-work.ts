import type { BadInputCase } from './bad-input-case.js';
import { oneClientSpec } from './one-client-spec.js';

// Small inputs that plan unbounded work, and configs that can never serve a request (docs/limits.md):
// refused with the planned count, the limit and the flag or file line that sets it, never run
// until a time limit stops them.

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '20'];

function sweep(search: string, axis: string): string {
  return `base:
  numInstances: 1
  model: meta-llama/llama-3.1-8b-instruct
  workload: {kind: synthetic, numRequests: 10, rate: 1}
seeds: [42]
search: ${search}
parameters:
  workload.rate: ${axis}
metrics: [ttft_mean_ms]
`;
}
const SWEEP = ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv'];
const POOLS = (pool: string) => `node_pools:\n  - { name: p, ${pool}, gpu_memory_gib: 80, initial_nodes: 1, min_nodes: 0, max_nodes: 4 }\n`;

export const cases: readonly BadInputCase[] = [
  {
    name: 'a grid range of 10^13 step points',
    args: SWEEP,
    files: { 'sweep.yaml': sweep('{kind: grid}', '{min: 1, max: 1e9, step: 0.0001}') },
    stderr: [/^blis: \S+sweep\.yaml:8 parameters\.workload\.rate: expected a range of at most 1000000 step points \(a larger step, or a list of values\), found 9999999990001 step points$/],
    exactLines: true,
  },
  {
    name: 'a grid range with a denormal step',
    args: SWEEP,
    files: { 'sweep.yaml': sweep('{kind: grid}', '{min: 1, max: 2, step: 5e-324}') },
    stderr: [/^blis: \S+sweep\.yaml:8 parameters\.workload\.rate: expected a range of at most 1000000 step points .*, found infinitely many step points$/],
    exactLines: true,
  },
  {
    name: 'a random search over a range with a denormal step',
    args: SWEEP,
    files: { 'sweep.yaml': sweep('{kind: random, samples: 4}', '{min: 1, max: 2, step: 5e-324}') },
    stderr: [/^blis: \S+sweep\.yaml:8 parameters\.workload\.rate: expected a range of at most 2\^53 − 1 step points .*, found infinitely many step points$/],
    exactLines: true,
  },
  {
    name: 'an autoscaler every µs over 20 s of arrivals',
    args: [...RUN, '--rate', '1', '--model-autoscaler-interval-us', '1'],
    stderr: ['--model-autoscaler-interval-us: expected at most 1000000 autoscaler evaluations (an interval of at least 20 µs over the 20 arrivals at 1 req/s, 20000000 µs), found 1 µs: 20000001 evaluations'],
    exactLines: true,
  },
  {
    name: "a policy file's autoscaler interval_us: 2, named at its line",
    args: [...RUN, '--rate', '1', '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': 'autoscaler:\n  interval_us: 2\n' },
    stderr: [/^blis: \S+policy\.yaml:2 autoscaler\.interval_us: expected at most 1000000 autoscaler evaluations .*, found 2 µs: 10000001 evaluations$/],
    exactLines: true,
  },
  {
    name: "an autoscaler every µs over a spec's arrivals (stopped at the limit as it runs)",
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml', '--model-autoscaler-interval-us', '1'],
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 1\nnum_requests: 20\n') },
    stderr: [/^blis: --model-autoscaler-interval-us: expected at most 1000000 autoscaler evaluations \(a longer interval\), found 1 µs: evaluation 1000001 at 1000000 µs, with requests still to serve$/],
    exactLines: true,
  },
  {
    name: 'a custom autoscaler asking for a billion replicas, with no maximum',
    args: [...RUN, '--autoscaler-enabled', '--autoscaler-policy', '$DIR/huge.mjs'],
    files: { 'huge.mjs': 'export default () => ({ name: "huge", evaluate: () => ({ delta: 1e9 }) });\n' },
    stderr: [/^blis: --autoscaler-max: expected a fleet of at most \d+ instances at once \((the instance limit|what .* holds .*)\); bound the autoscaler with a maximum, found scaling group monolithic from 1 to 1000000001 replicas at 0 µs: 1 \+ 1000000000 = 1000000001 instances$/],
    exactLines: true,
  },
  {
    name: 'node pools of a GPU type the replicas never run on',
    args: [...RUN, '--hardware', 'H100', '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': POOLS('gpu_type: TPUv9, gpus_per_node: 8') },
    stderr: [/^blis: \S+policy\.yaml:2 node_pools: expected a node pool of GPU type H100 for the replicas on H100 at TP 1, found p \(TPUv9, 8 GPUs per node, at most 4 nodes\)$/],
    exactLines: true,
  },
  {
    name: 'node pools too small for the tensor parallelism',
    args: [...RUN, '--tp', '2', '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': POOLS('gpu_type: H100, gpus_per_node: 1') },
    stderr: [/^blis: \S+policy\.yaml:2 node_pools: expected a node pool with at least 2 GPUs per node for the replicas on any GPU at TP 2, found p \(H100, 1 GPU per node, at most 4 nodes\)$/],
    exactLines: true,
  },
  {
    name: 'a loading delay of 1e300 s',
    args: [...RUN, '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': 'instance_lifecycle:\n  loading_delay: { mean: 1e300, stddev: 0 }\n' },
    stderr: [/^blis: \S+policy\.yaml:2 instance_lifecycle\.loading_delay\.mean: expected at most 9007199254\.740992 seconds \(the simulated clock's range of about 285 years\), found 1e300$/],
    exactLines: true,
  },
  {
    name: 'a provisioning delay of 1e300 s',
    args: [...RUN, '--policy-config', '$DIR/policy.yaml'],
    files: { 'policy.yaml': 'node_pools:\n  - { name: h, gpu_type: H100, gpus_per_node: 8, gpu_memory_gib: 80, max_nodes: 4, provisioning_delay: { mean: 1e300, stddev: 0 } }\n' },
    stderr: [/^blis: \S+policy\.yaml:2 node_pools\[0\]\.provisioning_delay\.mean: expected at most 9007199254\.740992 seconds .*, found 1e300$/],
    exactLines: true,
  },
  {
    name: '--loading-delay past the clock',
    args: [...RUN, '--autoscaler-enabled', '--loading-delay', '300000000000s'],
    stderr: ['--loading-delay: expected a duration of at most 9007199254740991 µs (the simulated clock\'s range of about 285 years), found "300000000000s"'],
    exactLines: true,
  },
];
