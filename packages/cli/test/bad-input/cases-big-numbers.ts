import type { BadInputCase } from './bad-input-case.js';

// Numbers YAML cannot hold exactly are reported as the file wrote them, with the limit: before,
// `num_requests: 9007199254740993` was reported as ...992 (rounded before the message was made),
// and a distribution's `max` beyond 2^53 (or 1e300) was accepted as a bound.

const RUN = ['run', '--latency-model', 'blackbox'];
const spec = (numRequests: string, output: string) => `version: "2"
seed: 1
aggregate_rate: 10
num_requests: ${numRequests}
clients:
  - id: a
    rate_fraction: 1
    arrival: {process: poisson}
    input_distribution: {type: constant, params: {value: 10}}
    output_distribution: ${output}
`;
const CONSTANT = '{type: constant, params: {value: 5}}';

export const cases: readonly BadInputCase[] = [
  {
    name: 'a spec\'s num_requests beyond 2^53, as written',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': spec('9007199254740993', CONSTANT) },
    stderr: [/^blis: \S+spec\.yaml:4 num_requests: expected an integer <= 9007199254740991, found 9007199254740993$/],
    exactLines: true,
  },
  {
    name: 'a spec\'s num_requests of 20 digits, as written',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': spec('99999999999999999999', CONSTANT) },
    stderr: [/^blis: \S+spec\.yaml:4 num_requests: expected an integer <= 9007199254740991, found 99999999999999999999$/],
    exactLines: true,
  },
  {
    name: 'a distribution max beyond 2^53',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': spec('5', '{type: exponential, params: {mean: 5, max: 9007199254740993}}') },
    stderr: [/^blis: \S+spec\.yaml:10 clients\[0\]\.output_distribution\.params\.max: expected a number <= 9007199254740991, found 9007199254740993$/],
    exactLines: true,
  },
  {
    name: 'a sweep base integer beyond 2^53, as written',
    args: ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv'],
    files: { 'sweep.yaml': 'base:\n  latencyModel: blackbox\n  numInstances: 9007199254740993\n  workload: {kind: synthetic, numRequests: 5, rate: 10}\nseeds: [1]\nparameters:\n  seed: [1]\nmetrics: [ttft_p99_ms]\n' },
    stderr: [/^blis: \S+sweep\.yaml:3 base\.numInstances: expected an integer <= 9007199254740991, found 9007199254740993$/],
  },
  {
    name: 'a policy file node count beyond 2^53, as written',
    args: [...RUN, '--policy-config', '$DIR/p.yaml'],
    files: { 'p.yaml': 'node_pools:\n  - name: a\n    gpu_type: H100\n    gpus_per_node: 8\n    gpu_memory_gib: 80\n    initial_nodes: 9007199254740993\n' },
    stderr: [/^blis: \S+p\.yaml:6 node_pools\[0\]\.initial_nodes: expected .*, found 9007199254740993$/],
  },
];
