import type { BadInputCase } from './bad-input-case.js';

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];

const SPEC_NAN = `version: "2"
aggregate_rate: .nan
num_requests: 5
clients:
  - id: a
    rate_fraction: .inf
    input_distribution: { type: constant, params: { value: 10 } }
    output_distribution: { type: constant, params: { value: 10 } }
`;

const SWEEP_NAN = `base:
  numInstances: .inf
  model: meta-llama/llama-3.1-8b-instruct
  gpuMemoryUtilization: .nan
  workload: {kind: synthetic, numRequests: 2, rate: 1}
seeds: [1]
search: {kind: grid}
parameters:
  seed2: [1]
`;

const SPEC_LONG_STRING = `version: "2"
aggregate_rate: "${'9'.repeat(5000)}"
num_requests: 5
clients:
  - id: a
    rate_fraction: 1
    input_distribution: { type: constant, params: { value: 10 } }
    output_distribution: { type: constant, params: { value: 10 } }
`;

/** How schema problems are worded: plain words, never zod's, values as the user wrote them. */
export const cases: readonly BadInputCase[] = [
  {
    name: '.nan and .inf in a workload spec are shown as written, not as null',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': SPEC_NAN },
    stderr: [/^blis: \S+spec\.yaml:2 aggregate_rate: expected a finite number, found \.nan$/, /^blis: \S+spec\.yaml:6 clients\[0\]\.rate_fraction: expected a finite number, found \.inf$/],
    exactLines: true,
  },
  {
    name: '.nan and .inf in a sweep spec are shown as written, not as null',
    args: ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv'],
    files: { 'sweep.yaml': SWEEP_NAN },
    stderr: [/^blis: \S+sweep\.yaml:2 base\.numInstances: expected a finite number, found \.inf$/, /^blis: \S+sweep\.yaml:4 base\.gpuMemoryUtilization: expected a finite number, found \.nan$/],
  },
  {
    name: 'a long string where a number belongs is quoted as an excerpt',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': SPEC_LONG_STRING },
    stderr: [/^blis: \S+spec\.yaml:2 aggregate_rate: expected a number, found "9{60}…" \(5000 characters\)$/],
    exactLines: true,
    maxStderrBytes: 400,
  },
];
