import type { BadInputCase } from './bad-input-case.js';
import { oneClientSpec } from './one-client-spec.js';

// Goodput thresholds (issue #39) and the spec fields BLIS reads that this CLI learnt to (issue
// #40): `goodput_slo_targets`, `servegen_data`, a client's `model`, and the per-class
// --slo-ttft/--slo-itl/--slo-e2e flags. Each refused at its line or flag, exit 2, nothing on stdout.

const RUN = ['run', '--model', 'qwen/qwen3-14b', '--workload-spec', '$DIR/spec.yaml'];
const at = (line: number, field: string, rest: string) => new RegExp(`^blis: \\S+spec\\.yaml:${line} ${field.replace(/[[\].]/g, '\\$&')}: expected ${rest}`);
const servegen = (section: string) => `version: "2"\nseed: 1\naggregate_rate: 0\nnum_requests: 20\nservegen_data:\n${section}`;
const FLAG_LIST = 'class=duration pairs, comma-separated, each duration positive with its unit \\(e\\.g\\. critical=100ms,standard=1\\.5s\\)';

export const cases: readonly BadInputCase[] = [
  {
    name: 'goodput_slo_targets: a negative threshold and a misspelt dimension',
    args: RUN,
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 10\nnum_requests: 20\ngoodput_slo_targets:\n  critical: {ttft_ms: -5, itl: 3}\n') },
    stderr: [at(6, 'goodput_slo_targets.critical.ttft_ms', 'a number >= 0, found -5'), at(6, 'goodput_slo_targets.critical.itl', 'a known field, found unknown field "itl"')],
  },
  {
    name: 'goodput_slo_targets: a class given a number, not thresholds',
    args: RUN,
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 10\nnum_requests: 20\ngoodput_slo_targets:\n  critical: 100\n') },
    stderr: [at(6, 'goodput_slo_targets.critical', 'a mapping, found 100')],
  },
  {
    name: 'servegen_data: a negative window',
    args: RUN,
    files: { 'spec.yaml': servegen('  path: data\n  window_duration_secs: -1\n') },
    stderr: [at(7, 'servegen_data.window_duration_secs', 'a number >= 0, found -1')],
  },
  {
    name: 'servegen_data: a directory that does not exist',
    args: RUN,
    files: { 'spec.yaml': servegen('  path: nowhere\n') },
    stderr: [at(6, 'servegen_data.path', 'a readable ServeGen data directory, found \\S+nowhere: ENOENT')],
  },
  {
    name: 'servegen_data: a directory without trace files',
    args: RUN,
    files: { 'spec.yaml': servegen('  path: data\n'), 'data/readme.txt': 'nothing here\n' },
    stderr: [at(6, 'servegen_data.path', 'ServeGen data: chunk-<id>-trace\\.csv files, found none')],
  },
  {
    name: 'servegen_data beside clients',
    args: RUN,
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 10\nnum_requests: 20\nservegen_data: {path: data}\n') },
    stderr: [at(7, 'clients', 'either clients or servegen_data \\(the two are exclusive workload sources\\), found both')],
  },
  {
    name: 'servegen_data beside cohorts (BLIS ignores the data then)',
    args: RUN,
    files: {
      'spec.yaml': servegen('  path: data\ncohorts:\n  - {id: c, population: 2, rate_fraction: 1, spike: {start_time_us: 0, duration_us: 1000000, trace_rate: 5}, input_distribution: {type: constant, params: {value: 10}}, output_distribution: {type: constant, params: {value: 5}}}\n'),
    },
    stderr: [at(8, 'cohorts', 'either cohorts or servegen_data \\(the two are exclusive workload sources\\), found both')],
  },
  {
    name: "a client's model that is not the run's",
    args: RUN,
    files: { 'spec.yaml': oneClientSpec('aggregate_rate: 10\nnum_requests: 20\n', '    model: llama-3.1-8b\n') },
    stderr: [at(11, 'clients[0].model', 'the run\'s model qwen/qwen3-14b, or none \\(every instance serves --model; BLIS would reject each of this client\'s requests at routing\\), found "llama-3.1-8b"')],
  },
  {
    name: '--slo-itl without a unit',
    args: ['run', '--num-requests', '5', '--slo-itl', 'critical=50'],
    stderr: [new RegExp(`^blis: --slo-itl: expected ${FLAG_LIST}, found "50" in "critical=50", not a duration$`)],
    exactLines: true,
  },
  {
    name: '--slo-itl as a bare number (only --slo-ttft and --slo-e2e keep the µs form)',
    args: ['run', '--num-requests', '5', '--slo-itl', '50'],
    stderr: [new RegExp(`^blis: --slo-itl: expected ${FLAG_LIST}, found "50" \\(no "="\\)$`)],
    exactLines: true,
  },
  {
    name: '--slo-ttft with an empty pair',
    args: ['run', '--num-requests', '5', '--slo-ttft', 'critical=100ms,,standard=1s'],
    stderr: [new RegExp(`^blis: --slo-ttft: expected ${FLAG_LIST}, or a whole number of µs, found an empty pair in "critical=100ms,,standard=1s"$`)],
    exactLines: true,
  },
  {
    name: '--slo-e2e with an empty class',
    args: ['run', '--num-requests', '5', '--slo-e2e', '=1s'],
    stderr: [new RegExp(`^blis: --slo-e2e: expected ${FLAG_LIST}, or a whole number of µs, found an empty class in "=1s"$`)],
    exactLines: true,
  },
  {
    name: '--slo-itl of zero',
    args: ['run', '--num-requests', '5', '--slo-itl', 'critical=0s'],
    stderr: [new RegExp(`^blis: --slo-itl: expected ${FLAG_LIST}, found a duration of "0s" in "critical=0s"$`)],
    exactLines: true,
  },
  {
    name: 'replay: a trace header whose goodput targets are not thresholds',
    args: ['replay', '--model', 'qwen/qwen3-14b', '--trace-header', '$DIR/t.yaml', '--trace-data', '$DIR/t.csv'],
    files: {
      't.yaml': 'trace_version: 3\ntime_unit: microseconds\ngoodput_slo_targets:\n  critical: {ttft: 100}\n',
      't.csv':
        'request_id,client_id,tenant_id,slo_class,session_id,round_index,prefix_group,prefix_length,streaming,input_tokens,output_tokens,text_tokens,image_tokens,audio_tokens,video_tokens,reason_ratio,model,deadline_us,server_input_tokens,arrival_time_us,send_time_us,first_chunk_time_us,last_chunk_time_us,num_chunks,status,error_message,finish_reason\n0,c,,critical,,0,,0,false,10,5,0,0,0,0,0,,0,0,0,0,0,0,0,ok,,\n',
    },
    stderr: [/^blis: \S+t\.yaml:4 goodput_slo_targets\.critical\.ttft: expected a key BLIS's TraceV2 header defines, found unknown key "ttft"$/],
  },
];
