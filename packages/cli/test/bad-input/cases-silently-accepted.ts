import type { BadInputCase } from './bad-input-case.js';
import { oneClientSpec } from './one-client-spec.js';

// Inputs that ran before without a word: a misspelt TraceV2 header key (BLIS reads the header
// strictly, yaml.v3 KnownFields, and refuses it), and lifecycle windows that all open after the
// run's --horizon (the spec's own horizon was already checked), which ran 0 of 0 requests.

const HEADER = 'trace_version: 2\ntime_unit: microseconds\nmode: generated\n';
const ROWS =
  'request_id,client_id,tenant_id,slo_class,session_id,round_index,prefix_group,prefix_length,streaming,input_tokens,output_tokens,text_tokens,image_tokens,audio_tokens,video_tokens,reason_ratio,model,deadline_us,server_input_tokens,arrival_time_us,send_time_us,first_chunk_time_us,last_chunk_time_us,num_chunks,status,error_message,finish_reason\n' +
  '0,c,,,,0,,0,false,10,5,10,0,0,0,0,,0,0,0,0,0,0,0,ok,,\n';
const KNOWN = 'trace_version, time_unit, created_at, mode, warm_up_requests, workload_seed, workload_spec, session_context_growth, server, network, goodput_slo_targets, kv_offload, observed_kv_metrics';
const LATE_SPEC = oneClientSpec('aggregate_rate: 10\nnum_requests: 20\n', '    lifecycle:\n      windows:\n        - {start_us: 5000000, end_us: 9000000}\n');

export const cases: readonly BadInputCase[] = [
  {
    name: 'a TraceV2 header with a misspelt key, listing the known ones',
    args: ['replay', '--latency-model', 'blackbox', '--trace', '$DIR/t.yaml'],
    files: { 't.yaml': `${HEADER}warm_up_request: 5\n`, 't.csv': ROWS },
    stderr: [new RegExp(`^blis: \\S+t\\.yaml:4 warm_up_request: expected a key BLIS's TraceV2 header defines \\(${KNOWN}\\), found unknown key "warm_up_request"$`)],
    exactLines: true,
  },
  {
    name: 'a TraceV2 header with an unknown key in its server block',
    args: ['replay', '--latency-model', 'blackbox', '--trace', '$DIR/t.yaml'],
    files: { 't.yaml': `${HEADER}server:\n  model: m\n  gpu: H100\n`, 't.csv': ROWS },
    stderr: [/^blis: \S+t\.yaml:6 server\.gpu: expected a key BLIS's TraceV2 header defines \(type, model, tensor_parallel, max_num_seqs, block_size, gpu_memory_utilization, max_model_len\), found unknown key "gpu"$/],
    exactLines: true,
  },
  {
    name: 'spec windows that all open after --horizon',
    args: ['run', '--latency-model', 'blackbox', '--workload-spec', '$DIR/spec.yaml', '--horizon', '1000000'],
    files: { 'spec.yaml': LATE_SPEC },
    stderr: [/^blis: \S+spec\.yaml:13 clients\[0\]\.lifecycle\.windows\[0\]\.start_us: expected a window starting before the run's horizon \(1000000 µs\); with every window after it the workload has no request, found 5000000$/],
    exactLines: true,
  },
];
