import type { BadInputCase } from './bad-input-case.js';

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];
const REGISTRY = 'lora:\n  adapters:\n    - {id: sql, rank: 8}\n    - {id: chat, rank: 16}\n';
const spec = (adapter: string) =>
  `version: "2"\nseed: 1\naggregate_rate: 5\nnum_requests: 5\nclients:\n  - id: c\n    rate_fraction: 1\n    adapter: ${adapter}\n    input_distribution: {type: constant, params: {value: 50}}\n    output_distribution: {type: constant, params: {value: 5}}\n`;

/** LoRA: --lora-config and the --lora-* flags (BLIS's refusals, named by flag or by file, line and key). */
export const cases: readonly BadInputCase[] = [
  {
    name: '--lora-adapter-capacity 0 with adapters declared',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml', '--lora-adapter-capacity', '0'],
    files: { 'lora.yaml': REGISTRY },
    stderr: ['--lora-adapter-capacity: expected an integer > 0 when adapters are declared, found 0'],
    exactLines: true,
  },
  {
    name: 'adapter_capacity 0 in the file',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': `${REGISTRY}  adapter_capacity: 0\n` },
    stderr: [/^blis: .*lora\.yaml:5 lora\.adapter_capacity: expected an integer > 0 when adapters are declared, found 0$/],
    exactLines: true,
  },
  {
    name: '--lora-load-bandwidth-bytes-us zero',
    args: [...RUN, '--lora-load-bandwidth-bytes-us', '0'],
    stderr: [/^blis: --lora-load-bandwidth-bytes-us: expected a positive number/],
    exactLines: true,
  },
  {
    name: '--lora-load-base-latency-us negative',
    args: [...RUN, '--lora-load-base-latency-us', '-1'],
    stderr: [/^blis: --lora-load-base-latency-us: expected a non-negative number/],
    exactLines: true,
  },
  {
    name: 'a duplicate adapter id and a rank of 0',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': 'lora:\n  adapters:\n    - {id: sql, rank: 0}\n    - {id: sql, rank: 8}\n' },
    stderr: [/lora\.yaml:3 lora\.adapters\[0\]\.rank: expected a rank that is an integer > 0, found 0$/, /lora\.yaml:4 lora\.adapters\[1\]\.id: expected a unique adapter id, found "sql" twice$/],
    exactLines: true,
  },
  {
    name: 'an unknown key in the lora block',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': `${REGISTRY}  max_loras: 4\n` },
    stderr: [/lora\.yaml:5 lora\.max_loras: expected a key of BLIS's lora block \(adapter_capacity, .*\), found unknown key "max_loras"$/],
    exactLines: true,
  },
  {
    name: 'a file without a lora block',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': 'adapters: []\n' },
    stderr: [/lora\.yaml:1: expected a top-level lora: block \(BLIS's --lora-config format\), found none$/],
    exactLines: true,
  },
  {
    name: 'a tier without k7',
    args: [...RUN, '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': `${REGISTRY}  step_overhead_tiers:\n    8: {k6: 0.1}\n` },
    stderr: [/lora\.yaml:6 lora\.step_overhead_tiers\.8\.k7: expected /],
    exactLines: true,
  },
  {
    name: 'a client naming an adapter the registry does not declare',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml', '--lora-config', '$DIR/lora.yaml'],
    files: { 'lora.yaml': REGISTRY, 'spec.yaml': spec('legal') },
    stderr: [/spec\.yaml.* clients\[0\]\.adapter: expected an adapter id of the registry \(chat, sql\), found "legal"$/],
  },
  {
    name: 'a client naming an adapter with no --lora-config',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': spec('sql') },
    stderr: [/clients\[0\]\.adapter: expected no adapter \(none is declared: give --lora-config with a lora\.adapters registry\), found "sql"$/],
  },
  {
    name: '--lora-scorer-weight beside lora-affinity in --routing-scorers',
    args: [...RUN, '--routing-policy', 'weighted', '--routing-scorers', 'queue-depth:1,lora-affinity:1', '--lora-scorer-weight', '2'],
    stderr: ['--lora-scorer-weight: expected a profile without lora-affinity (set its weight in --routing-scorers or with --lora-scorer-weight, not both), found lora-affinity already in the profile'],
    exactLines: true,
  },
  {
    name: '--lora-scorer-weight zero',
    args: [...RUN, '--routing-policy', 'weighted', '--lora-scorer-weight', '0'],
    stderr: [/^blis: --lora-scorer-weight: expected a positive number/],
    exactLines: true,
  },
];
