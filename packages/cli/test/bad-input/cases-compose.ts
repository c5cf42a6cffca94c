import type { BadInputCase } from './bad-input-case.js';

// `blis compose --from ...`: each bad input names the file and line (or the flag), what was
// expected and found; nothing reaches stdout.

const SPEC = (slo: string, rate = 5) =>
  `version: "2"\naggregate_rate: ${rate}\nnum_requests: 10\nclients:\n  - id: c\n${slo}    rate_fraction: 1\n    arrival: {process: poisson}\n    input_distribution: {type: constant, params: {value: 10}}\n    output_distribution: {type: constant, params: {value: 5}}\n`;

export const cases: readonly BadInputCase[] = [
  { name: 'compose without --from', args: ['compose'], stderr: ['--from: expected at least one WorkloadSpec file (--from a.yaml --from b.yaml), found none'], exactLines: true },
  { name: 'compose --from a file that does not exist', args: ['compose', '--from', '$DIR/none.yaml'], stderr: [/^blis: --from \S+none\.yaml: expected a readable workload spec file \(WorkloadSpec v2 YAML\), found ENOENT/], exactLines: true },
  {
    name: 'compose --from a spec with a misspelt field: the file, line and field',
    args: ['compose', '--from', '$DIR/a.yaml', '--from', '$DIR/b.yaml'],
    files: { 'a.yaml': SPEC('    slo_class: batch\n'), 'b.yaml': SPEC('    slo_klass: batch\n') },
    stderr: [/^blis: \S+b\.yaml:6 clients\[0\]\.slo_klass: expected a known field, found unknown field "slo_klass"$/],
  },
  {
    name: 'compose --from a spec with a negative aggregate_rate',
    args: ['compose', '--from', '$DIR/a.yaml'],
    files: { 'a.yaml': SPEC('', -1) },
    stderr: [/^blis: \S+a\.yaml:2 aggregate_rate: expected a number >= 0, found -1$/],
  },
  {
    name: 'compose of a spec with SLO classes and one without: BLIS refuses the merged mix',
    args: ['compose', '--from', '$DIR/a.yaml', '--from', '$DIR/b.yaml'],
    files: { 'a.yaml': SPEC('    slo_class: batch\n'), 'b.yaml': SPEC('') },
    stderr: ['the composed spec clients[1].slo_class: expected an slo_class on every client once one has one (clients[0] has "batch"; BLIS refuses the mix), found none on 1 client(s): clients[1]'],
    exactLines: true,
  },
  {
    name: 'compose --from an inference_perf spec (no clients to merge)',
    args: ['compose', '--from', '$DIR/ip.yaml'],
    files: {
      'ip.yaml':
        'version: "2"\ninference_perf:\n  stages:\n    - {rate: 1, duration: 2}\n  shared_prefix:\n    num_unique_system_prompts: 1\n    num_users_per_system_prompt: 1\n    system_prompt_len: 10\n    question_len: 10\n    output_len: 10\n',
    },
    stderr: [/^blis: --from \S+ip\.yaml: expected a spec with clients \(compose merges client lists; BLIS would drop an inference_perf section\), found an inference_perf section$/],
    exactLines: true,
  },
  { name: 'compose --from a binary file', args: ['compose', '--from', '$DIR/x.yaml'], files: { 'x.yaml': Uint8Array.from({ length: 512 }, (_, i) => (i * 31) % 256) }, stderr: [/^blis: \S+x\.yaml/], exactLines: true },
  { name: 'compose --from given empty', args: ['compose', '--from', ''], stderr: ['--from: expected a non-empty value, found [""]'], exactLines: true },
];
