import { TRACEV2_COLUMNS } from '@blis/workload/internal';
import type { BadInputCase } from './bad-input-case.js';

// The file readers: YAML specs and policy files, TraceV2 pairs, Azure CSVs, Mooncake JSONL.

const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const RUN = ['run', ...MODEL, '--num-requests', '5'];
const REPLAY = ['replay', ...MODEL];

/** Nine levels of nine aliases each: 9^9 strings from 10 lines ("billion laughs"). */
const ALIAS_BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n');

const SPEC = `version: "2"
aggregate_rate: 10
num_requests: 5
clients:
  - id: a
    rate_fraction: 1
    input_distribution: {type: constant, params: {value: 100}}
    output_distribution: {type: constant, params: {value: 10}}
`;

/** The first bytes of a PNG image: signature, then an IHDR chunk (NULs in its length). */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0, 0x5c, 0x72, 0xa8, 0x66, ...Array(200).fill(0x7f)]);

/** A TraceV2 data row with the given input_tokens, and everything else plain. */
function v2Row(id: string, inputTokens: string): string {
  const v: Record<string, string> = { request_id: id, streaming: 'false', input_tokens: inputTokens, output_tokens: '10', arrival_time_us: '0', status: 'ok' };
  return TRACEV2_COLUMNS.map((c) => v[c] ?? (c.endsWith('_id') || c === 'slo_class' || c === 'prefix_group' || c === 'model' || c === 'error_message' || c === 'finish_reason' ? '' : '0')).join(',');
}
const V2_HEADER = TRACEV2_COLUMNS.join(',');
const AZ_HEADER = 'TIMESTAMP,ContextTokens,GeneratedTokens';

const EXCERPT = /"[^"]{0,60}(…" \(\d+ characters\)|")/;

export const cases: readonly BadInputCase[] = [
  // YAML inputs.
  {
    name: 'YAML alias bomb as a workload spec',
    args: [...RUN, '--workload-spec', '$DIR/bomb.yaml'],
    files: { 'bomb.yaml': ALIAS_BOMB },
    stderr: [/^blis: \S+bomb\.yaml:2: expected at most 100 uses of YAML aliases \(\*name\), counting the aliases inside what each one repeats, found more /],
    exactLines: true,
  },
  {
    name: 'YAML alias bomb as a policy file',
    args: [...RUN, '--policy-config', '$DIR/bomb.yaml'],
    files: { 'bomb.yaml': ALIAS_BOMB },
    stderr: [/^blis: \S+bomb\.yaml:2: expected at most 100 uses of YAML aliases/],
    exactLines: true,
  },
  {
    name: 'YAML alias bomb as a TraceV2 header',
    args: [...REPLAY, '--trace', '$DIR/t.yaml'],
    files: { 't.yaml': `trace_version: 2\n${ALIAS_BOMB}`, 't.csv': `${V2_HEADER}\n${v2Row('r0', '100')}\n` },
    stderr: [/^blis: \S+t\.yaml:3: expected at most 100 uses of YAML aliases/],
    exactLines: true,
  },
  {
    name: 'YAML nested 200 levels deep',
    args: [...RUN, '--workload-spec', '$DIR/deep.yaml'],
    files: { 'deep.yaml': `a: ${'['.repeat(200)}${']'.repeat(200)}\n` },
    stderr: [/^blis: \S+deep\.yaml: expected YAML nested at most 64 levels deep, found deeper nesting$/],
    exactLines: true,
  },
  {
    name: 'YAML nested 100,000 levels deep (the parser runs out of stack)',
    args: [...RUN, '--policy-config', '$DIR/deep.yaml'],
    files: { 'deep.yaml': () => `a: ${'['.repeat(100_000)}\n` },
    stderr: [/^blis: \S+deep\.yaml:1: expected YAML nested at most 64 levels deep, found deeper nesting$/],
    exactLines: true,
  },
  {
    name: 'a 9 MiB workload spec',
    args: [...RUN, '--workload-spec', '$DIR/big.yaml'],
    files: { 'big.yaml': () => `${SPEC}category: ${'y'.repeat(9 * 1024 * 1024)}\n` },
    stderr: [/^blis: --workload-spec \S+big\.yaml: expected a workload spec of at most 8388608 bytes \(8 MiB; 10000 clients at most\), found \d+ bytes$/],
    exactLines: true,
  },
  {
    name: 'a 7 MiB value in a spec is quoted as an excerpt',
    args: [...RUN, '--workload-spec', '$DIR/long.yaml'],
    files: { 'long.yaml': () => SPEC.replace('version: "2"', `version: "${'9'.repeat(7 * 1024 * 1024)}"`) },
    // What it expects is worded by the schema (another part of issue 22); the excerpt is this one's.
    stderr: [/^blis: \S+long\.yaml:1 version: expected .+, found "9{60}…" \(7340032 characters\)$/],
    exactLines: true,
  },
  {
    name: 'a list item without its dash, located with an excerpt',
    args: [...RUN, '--workload-spec', '$DIR/indent.yaml'],
    files: { 'indent.yaml': 'version: "2"\nclients:\n - id: a\n  rate: 1\n' },
    stderr: [/^blis: \S+indent\.yaml:4: expected valid YAML \(.+\), found " {2}rate: 1"/],
    exactLines: true,
  },
  {
    name: 'a tab as indentation in a policy file',
    args: [...RUN, '--policy-config', '$DIR/tab.yaml'],
    files: { 'tab.yaml': 'admission:\n\tpolicy: always-admit\n' },
    stderr: [/^blis: \S+tab\.yaml:2: expected valid YAML \(.+\), found "\\tpolicy: always-admit"/],
  },
  {
    name: 'a PNG as a workload spec',
    args: [...RUN, '--workload-spec', '$DIR/image.png'],
    files: { 'image.png': PNG },
    stderr: [/^blis: \S+image\.png: expected a YAML text file, found binary data$/],
    exactLines: true,
  },
  {
    name: 'random bytes as a policy file',
    args: [...RUN, '--policy-config', '$DIR/random.yaml'],
    files: { 'random.yaml': () => Uint8Array.from({ length: 3000 }, (_, i) => (i * 2654435761) % 251) },
    stderr: [/^blis: \S+random\.yaml: expected a YAML text file, found binary data$/],
    exactLines: true,
  },
  {
    name: 'a lifecycle window that opens after the horizon',
    args: [...RUN.slice(0, 3), '--workload-spec', '$DIR/late.yaml'],
    files: {
      'late.yaml': `${SPEC.replace('num_requests: 5', 'horizon: 10000000')}    lifecycle:\n      windows:\n        - {start_us: 20000000, end_us: 30000000}\n`,
    },
    stderr: [/^blis: \S+late\.yaml:11 clients\[0\]\.lifecycle\.windows\[0\]\.start_us: expected a window starting before the horizon \(10000000 µs\).*, found 20000000$/],
    exactLines: true,
  },
  {
    name: 'a constant prompt length of 10^15 tokens in a spec',
    args: [...RUN, '--workload-spec', '$DIR/huge.yaml'],
    files: { 'huge.yaml': SPEC.replace('{value: 100}', '{value: 1000000000000000}') },
    stderr: [/^blis: \S+huge\.yaml:7 clients\[0\]\.input_distribution\.params\.value: expected a number <= 16777216, found 1000000000000000$/],
    exactLines: true,
  },
  {
    name: 'an empirical lengths CSV with a value past the token limit',
    args: [...RUN, '--workload-spec', '$DIR/emp.yaml'],
    files: {
      'emp.yaml': SPEC.replace('{type: constant, params: {value: 100}}', '{type: empirical, params: {file: lengths.csv}}'),
      'lengths.csv': 'num_prefill_tokens\n120\n99999999999\n',
    },
    stderr: [/^blis: \S+lengths\.csv:3 num_prefill_tokens: expected a positive number of tokens, at most 16777216, found "99999999999"$/],
    exactLines: true,
  },
  // Traces.
  {
    name: 'a PNG as a trace',
    args: [...REPLAY, '--trace', '$DIR/image.png'],
    files: { 'image.png': PNG },
    stderr: [/^blis: \S+image\.png: expected a trace text file \(.+\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'a PNG as an Azure trace (--trace-format)',
    args: [...REPLAY, '--trace', '$DIR/image.csv', '--trace-format', 'azure'],
    files: { 'image.csv': PNG },
    stderr: [/^blis: \S+image\.csv: expected .*text file.*, found binary data$/],
    exactLines: true,
  },
  {
    name: 'a trace of one 2 MiB line',
    args: [...REPLAY, '--trace', '$DIR/long.jsonl'],
    files: { 'long.jsonl': () => `{"timestamp": 0, "input_length": 10, "output_length": 5, "x": "${'z'.repeat(2 * 1024 * 1024)}"}\n` },
    stderr: [/^blis: \S+long\.jsonl:1: expected lines of at most 1048576 characters, found a longer line$/],
    exactLines: true,
  },
  {
    name: 'TraceV2 input_tokens 99999999999999999999',
    args: [...REPLAY, '--trace', '$DIR/t.csv'],
    files: { 't.yaml': 'trace_version: 2\n', 't.csv': `${V2_HEADER}\n${v2Row('r0', '99999999999999999999')}\n` },
    stderr: [/^blis: \S+t\.csv:2 input_tokens: expected an integer from 0 to 16777216, found "99999999999999999999"$/],
    exactLines: true,
  },
  {
    name: 'TraceV2 input_tokens 1e15 (exact, but past the token limit)',
    args: [...REPLAY, '--trace', '$DIR/t.csv'],
    files: { 't.yaml': 'trace_version: 2\n', 't.csv': `${V2_HEADER}\n${v2Row('r0', '1000000000000000')}\n` },
    stderr: [/^blis: \S+t\.csv:2 input_tokens: expected an integer from 0 to 16777216, found "1000000000000000"$/],
    exactLines: true,
  },
  {
    name: 'TraceV2 input_tokens in hex',
    args: [...REPLAY, '--trace', '$DIR/t.csv'],
    files: { 't.yaml': 'trace_version: 2\n', 't.csv': `${V2_HEADER}\n${v2Row('r0', '0x10')}\n` },
    stderr: [/^blis: \S+t\.csv:2 input_tokens: expected an integer from 0 to 16777216, found "0x10"$/],
    exactLines: true,
  },
  {
    name: 'TraceV2 arrival_time_us past 2^53',
    args: [...REPLAY, '--trace', '$DIR/t.csv'],
    files: { 't.yaml': 'trace_version: 2\n', 't.csv': `${V2_HEADER}\n${v2Row('r0', '100').replace(/^((?:[^,]*,){19})0,/, '$19007199254740993,')}\n` },
    stderr: [/^blis: \S+t\.csv:2 arrival_time_us: expected a non-negative integer \(at most 9007199254740991\), found "9007199254740993"$/],
    exactLines: true,
  },
  {
    name: 'TraceV2 with a header row and no request',
    args: [...REPLAY, '--trace', '$DIR/t.yaml'],
    files: { 't.yaml': 'trace_version: 2\n', 't.csv': `${V2_HEADER}\n` },
    stderr: [/^blis: \S+t\.csv: expected at least one request row, found none$/],
    exactLines: true,
  },
  {
    name: 'Azure CSV with a header and no row',
    args: [...REPLAY, '--trace', '$DIR/az.csv'],
    files: { 'az.csv': `${AZ_HEADER}\n` },
    stderr: [/^blis: \S+az\.csv: expected at least one request row, found none$/],
    exactLines: true,
  },
  {
    name: 'empty Mooncake JSONL',
    args: [...REPLAY, '--trace', '$DIR/m.jsonl', '--trace-format', 'mooncake'],
    files: { 'm.jsonl': '\n\n' },
    stderr: [/^blis: \S+m\.jsonl: expected at least one request row, found none$/],
    exactLines: true,
  },
  {
    name: 'Azure timestamp in month 13, hour 25 (blamed on its own row, not the next)',
    args: [...REPLAY, '--trace', '$DIR/az.csv'],
    files: { 'az.csv': `${AZ_HEADER}\n2023-11-16 18:15:46.6805900,374,44\n2023-13-45 25:61:03,100,10\n2023-11-16 18:15:47.0,374,44\n` },
    stderr: [/^blis: \S+az\.csv:3 TIMESTAMP: expected a real date and time, YYYY-MM-DD HH:MM:SS\[\.fffffff\], found "2023-13-45 25:61:03"$/],
    exactLines: true,
  },
  {
    name: 'Azure timestamp on February 30th',
    args: [...REPLAY, '--trace', '$DIR/az.csv'],
    files: { 'az.csv': `${AZ_HEADER}\n2023-02-27 18:15:46,374,44\n2023-02-30 00:00:00,100,10\n` },
    stderr: [/^blis: \S+az\.csv:3 TIMESTAMP: expected a real date and time, .*found "2023-02-30 00:00:00"$/],
    exactLines: true,
  },
  {
    name: 'Azure ContextTokens past the token limit',
    args: [...REPLAY, '--trace', '$DIR/az.csv'],
    files: { 'az.csv': `${AZ_HEADER}\n2023-02-27 18:15:46,99999999999,44\n` },
    stderr: [/^blis: \S+az\.csv:2 ContextTokens: expected an integer from 1 to 16777216, found "99999999999"$/],
    exactLines: true,
  },
  {
    name: 'Mooncake input_length past the token limit',
    args: [...REPLAY, '--trace', '$DIR/m.jsonl'],
    files: { 'm.jsonl': '{"timestamp": 0, "input_length": 1e15, "output_length": 5, "hash_ids": []}\n' },
    stderr: [/^blis: \S+m\.jsonl:1 input_length: expected a number <= 16777216, found 1000000000000000$/],
    exactLines: true,
  },
  {
    name: '--trace-format tracev2 for a Mooncake file names that file',
    args: [...REPLAY, '--trace', '$DIR/s.jsonl', '--trace-format', 'tracev2'],
    files: { 's.jsonl': '{"timestamp": 0, "input_length": 10, "output_length": 5, "hash_ids": [1]}\n' },
    stderr: [/^blis: \S+\/s\.jsonl:1: expected a TraceV2 CSV \(--trace-format tracev2\), found a Mooncake JSONL trace: "/],
    exactLines: true,
  },
  {
    name: '--trace-format mooncake for an Azure CSV',
    args: [...REPLAY, '--trace', '$DIR/az.csv', '--trace-format', 'mooncake'],
    files: { 'az.csv': `${AZ_HEADER}\n2023-02-27 18:15:46,374,44\n` },
    stderr: [/^blis: \S+az\.csv:1: expected a Mooncake JSONL trace \(--trace-format mooncake\), found an Azure trace CSV: "TIMESTAMP,ContextTokens,GeneratedTokens"$/],
    exactLines: true,
  },
  {
    name: 'a trace in no known format: an excerpt of its first line',
    args: [...REPLAY, '--trace', '$DIR/what.txt'],
    files: { 'what.txt': () => `${'q'.repeat(100_000)}\n` },
    stderr: [new RegExp(`^blis: \\S+what\\.txt:1: expected a TraceV2 CSV/YAML, a Mooncake JSONL or an Azure CSV \\(or --trace-format\\), found ${EXCERPT.source}$`)],
    exactLines: true,
  },
  // BLIS's inference_perf section.
  {
    name: 'inference_perf beside clients',
    args: [...RUN, '--workload-spec', '$DIR/both.yaml'],
    files: { 'both.yaml': `${SPEC}inference_perf:\n  stages: [{rate: 1, duration: 10}]\n  shared_prefix: {num_unique_system_prompts: 1, num_users_per_system_prompt: 1, system_prompt_len: 10, question_len: 10, output_len: 10}\n` },
    stderr: [/^blis: \S+both\.yaml:5 clients: expected either clients or inference_perf \(the two are exclusive workload sources\), found both$/],
    exactLines: true,
  },
  {
    name: 'inference_perf stage of fewer than one request',
    args: [...RUN, '--workload-spec', '$DIR/few.yaml'],
    files: { 'few.yaml': 'version: "2"\ninference_perf:\n  stages:\n    - rate: 0.1\n      duration: 5\n  shared_prefix: {num_unique_system_prompts: 1, num_users_per_system_prompt: 1, system_prompt_len: 10, question_len: 10, output_len: 10}\n' },
    stderr: [/^blis: \S+few\.yaml:4 inference_perf\.stages\[0\]: expected rate × duration of at least 1 request, found 0\.1 × 5 s = 0\.5$/],
    exactLines: true,
  },
  {
    name: 'inference_perf with bad numbers and an unknown field',
    args: [...RUN, '--workload-spec', '$DIR/bad.yaml'],
    files: {
      'bad.yaml':
        'version: "2"\ninference_perf:\n  stages:\n    - rate: .nan\n      duration: 0\n  shared_prefix: {num_unique_system_prompts: 0, num_users_per_system_prompt: 1, system_prompt_len: 10, question_len: 10, output_len: 10, colour: red}\n',
    },
    stderr: [
      /^blis: \S+bad\.yaml:4 inference_perf\.stages\[0\]\.rate: expected .*, found \.nan$/,
      /^blis: \S+bad\.yaml:5 inference_perf\.stages\[0\]\.duration: expected a number > 0, found 0$/,
      /^blis: \S+bad\.yaml:6 inference_perf\.shared_prefix\.num_unique_system_prompts: expected a number > 0, found 0$/,
      /^blis: \S+bad\.yaml:6 inference_perf\.shared_prefix\.colour: expected a known field, found unknown field "colour"$/,
    ],
    exactLines: true,
  },
  {
    name: 'inference_perf with more users than requests',
    args: [...RUN, '--workload-spec', '$DIR/users.yaml'],
    files: { 'users.yaml': 'version: "2"\ninference_perf:\n  stages: [{rate: 1, duration: 3}]\n  shared_prefix: {num_unique_system_prompts: 2, num_users_per_system_prompt: 2, system_prompt_len: 10, question_len: 10, output_len: 10}\n' },
    stderr: [/^blis: \S+users\.yaml:4 inference_perf\.shared_prefix: expected at most 3 users \(rate × duration requests, one or more each\), found 4 users$/],
    exactLines: true,
  },
  {
    name: 'inference_perf expanding to 2×10^16 clients is refused before it is built',
    args: [...RUN, '--workload-spec', '$DIR/huge.yaml'],
    files: { 'huge.yaml': 'version: "2"\ninference_perf:\n  stages: [{rate: 1, duration: 10}, {rate: 2, duration: 10}]\n  shared_prefix: {num_unique_system_prompts: 100000000, num_users_per_system_prompt: 100000000, system_prompt_len: 10, question_len: 10, output_len: 10}\n' },
    stderr: [/^blis: \S+huge\.yaml:4 inference_perf\.shared_prefix: expected at most 10000 clients \(system prompts × users per prompt × 2 stages\), found 100000000 × 100000000 × 2 = 20000000000000000$/],
    exactLines: true,
  },
  {
    name: 'inference_perf asking for 10^8 requests',
    args: [...RUN, '--workload-spec', '$DIR/many.yaml'],
    files: { 'many.yaml': 'version: "2"\ninference_perf:\n  stages: [{rate: 1000000, duration: 100}]\n  shared_prefix: {num_unique_system_prompts: 2, num_users_per_system_prompt: 2, system_prompt_len: 10, question_len: 10, output_len: 10}\n' },
    stderr: [/^blis: \S+many\.yaml:3 inference_perf\.stages: expected at most 10000000 requests over all stages \(rate × duration\), found 100000000$/],
    exactLines: true,
  },
  // JSON config files the latency model reads.
  {
    name: 'a binary file as --hardware-config',
    args: [...RUN, '--hardware-config', '$DIR/hw.bin'],
    files: { 'hw.bin': PNG },
    stderr: [/^blis: \S+hw\.bin: expected a hardware_config\.json \(JSON\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'a binary file as --model-config',
    args: [...RUN, '--latency-model', 'roofline', '--model-config', '$DIR/config.bin'],
    files: { 'config.bin': PNG },
    stderr: [/^blis: \S+config\.bin: expected JSON, found binary data$/],
    exactLines: true,
  },
  {
    name: 'invalid JSON as --model-config is located without echoing the file',
    args: [...RUN, '--latency-model', 'roofline', '--model-config', '$DIR/config.json'],
    files: { 'config.json': '{\n  "hidden_size": 4096\n  "num_layers": 32\n}\n' },
    stderr: [/^blis: \S+config\.json: expected JSON, found something else at line 3, column 3: "\\"num_layers\\": 32\\n}\\n"$/],
    exactLines: true,
  },
  // Sweep specs whose candidates would not fit in memory, let alone run.
  {
    name: 'a sweep grid of 10^7 candidates is refused before it is built',
    args: ['sweep', '$DIR/grid.yaml', '--output', '$DIR/out.csv'],
    files: { 'grid.yaml': 'base: {numInstances: 1, model: meta-llama/llama-3.1-8b-instruct}\nseeds: [1]\nsearch: {kind: grid}\nparameters:\n  maxNumSeqs: {min: 1, max: 1000, step: 1}\n  numInstances: {min: 1, max: 1000, step: 1}\n  blockSizeTokens: {min: 1, max: 10, step: 1}\nmetrics: [ttft_mean_ms]\n' },
    stderr: [/^blis: \S+grid\.yaml:5 parameters: expected at most 1000000 candidates \(the grid is the product of the value lists\), found 1000 × 1000 × 10 = 10000000$/],
    exactLines: true,
  },
  {
    name: 'a random sweep of 10^9 samples',
    args: ['sweep', '$DIR/random.yaml', '--output', '$DIR/out.csv'],
    files: { 'random.yaml': 'base: {numInstances: 1, model: meta-llama/llama-3.1-8b-instruct}\nseeds: [1]\nsearch: {kind: random, samples: 1000000000}\nparameters:\n  numInstances: [1, 2]\nmetrics: [ttft_mean_ms]\n' },
    stderr: [/^blis: \S+random\.yaml:3 search\.samples: expected at most 1000000 candidates, found 1000000000$/],
    exactLines: true,
  },
  {
    name: 'a node pool of 10^8 nodes',
    args: [...RUN, '--policy-config', '$DIR/np.yaml'],
    files: { 'np.yaml': 'node_pools:\n  - name: h100\n    gpu_type: H100\n    gpus_per_node: 8\n    gpu_memory_gib: 80\n    initial_nodes: 100000000\n    max_nodes: 100000000\n' },
    stderr: [/^blis: \S+np\.yaml:6 node_pools\[0\]\.initial_nodes: expected at most 10000 nodes, found 100000000$/, /^blis: \S+np\.yaml:7 node_pools\[0\]\.max_nodes: expected at most 10000 nodes, found 100000000$/],
    exactLines: true,
  },
];
