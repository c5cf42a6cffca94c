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
];
