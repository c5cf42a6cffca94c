import type { BadInputCase } from './bad-input-case.js';

// Syntax errors in our words, one located message each: the YAML and JSON parsers' own
// sentences ("Nested mappings are not allowed in compact mappings", "Flow sequence must end
// with a ]", "Expected property name or '}' in JSON at position 42") are never shown, and the
// errors a first one causes are not reported as more problems.

const RUN = ['run', '--latency-model', 'blackbox', '--num-requests', '5'];

export const cases: readonly BadInputCase[] = [
  {
    name: 'a spec line indented under a key that has a value (three parser errors before)',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': 'version: "2"\nseed: 1\naggregate_rate: 10\n  num_requests: 5\nclients: []\n' },
    stderr: [/^blis: \S+spec\.yaml:4: expected valid YAML \(a key at the column of the key above it: indented further, a line continues the value above\), found " {2}num_requests: 5" at column 3$/],
    exactLines: true,
  },
  {
    name: 'a policy file key indented between two levels',
    args: [...RUN, '--policy-config', '$DIR/p.yaml'],
    files: { 'p.yaml': 'routing:\n  policy: round-robin\n bad: 1\n' },
    stderr: [/^blis: \S+p\.yaml:3: expected valid YAML \(each key of a mapping at the column of the keys beside it\), found " bad: 1" at column 2$/],
    exactLines: true,
  },
  {
    name: 'a list item indented less than the one before',
    args: [...RUN, '--policy-config', '$DIR/p.yaml'],
    files: { 'p.yaml': 'routing:\n  scorers:\n    - queue-depth\n   - kv-utilization\n' },
    stderr: [/^blis: \S+p\.yaml:4: expected valid YAML \(each `- ` item of a list at the column of the items beside it\), found " {3}- kv-utilization" at column 4$/],
    exactLines: true,
  },
  {
    name: 'a quote never closed, reported where it opens',
    args: [...RUN, '--policy-config', '$DIR/p.yaml'],
    files: { 'p.yaml': 'routing:\n  policy: "round-robin\nadmission:\n  policy: always-admit\n' },
    stderr: [/^blis: \S+p\.yaml:2: expected valid YAML \(a " closing the quoted value at column 11\), found " {2}policy: \\"round-robin", never closed$/],
    exactLines: true,
  },
  {
    name: '--policy-param with a flow list never closed',
    args: [...RUN, '--policy-param', 'routing.x=[1,2'],
    stderr: ['--policy-param routing.x: expected a YAML flow list, [a, b], with a ] closing the [ at column 1, found "[1,2", never closed'],
    exactLines: true,
  },
  {
    name: 'evaluate --request with JSON cut short',
    args: ['evaluate', '--request', '$DIR/req.json'],
    files: { 'req.json': '{"protocol": "blis-eval/1", "candidate": {' },
    stderr: [/^blis: \S+req\.json:1:43: expected one blis-eval\/1 request as JSON: a property name in double quotes, or '}', found the end of the input$/],
    exactLines: true,
  },
  {
    name: 'evaluate --request with a missing comma, on its line',
    args: ['evaluate', '--request', '$DIR/req.json'],
    files: { 'req.json': '{\n  "protocol": "blis-eval/1"\n  "candidate": {}\n}\n' },
    stderr: [/^blis: \S+req\.json:3:3: expected one blis-eval\/1 request as JSON: ',' or '}' after a property's value, found "\\"candidate\\": \{}\\n}\\n"$/],
    exactLines: true,
  },
];
