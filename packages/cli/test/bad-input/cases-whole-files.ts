import type { BadInputCase } from './bad-input-case.js';

// Files read whole before they are parsed (docs/limits.md): the sweep journal on resume,
// calibrate's simulator results and metrics, evaluate's request. Each is size-checked before a
// byte is read and refused when it is binary data.

/** The first bytes of a PNG image: signature, then an IHDR chunk (NULs in its length). */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0, 0x5c, 0x72, 0xa8, 0x66]);

/** `bytes` of JSON whitespace around an empty array: valid text, only too long. */
const padded = (bytes: number) => () => `[${' '.repeat(bytes - 2)}]`;

const SWEEP = `base:
  latencyModel: blackbox
  workload: {kind: synthetic, numRequests: 5, rate: 10}
seeds: [1]
parameters:
  numInstances: [1]
metrics: [ttft_p99_ms]
`;

const COLUMNS =
  'request_id,client_id,tenant_id,slo_class,vllm_priority,session_id,round_index,prefix_group,prefix_length,streaming,input_tokens,output_tokens,text_tokens,image_tokens,audio_tokens,video_tokens,reason_ratio,model,deadline_us,server_input_tokens,arrival_time_us,send_time_us,first_chunk_time_us,last_chunk_time_us,num_chunks,status,error_message,finish_reason';
const TRACE = {
  'h.yaml': 'trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\n',
  'd.csv': `${COLUMNS}\n0,c,,critical,1,,0,,0,true,100,10,100,0,0,0,0,m,0,0,0,1000,1200,2000,10,ok,,length\n`,
  'sim.json': JSON.stringify([{ request_id: 'request_0', ttft_us: 150, e2e_us: 900, input_tokens: 100, output_tokens: 10 }]),
};
const CALIBRATE = ['calibrate', '--trace-header', '$DIR/h.yaml', '--trace-data', '$DIR/d.csv', '--report', '$DIR/report.json'];

export const cases: readonly BadInputCase[] = [
  {
    name: 'sweep journal of binary data on resume',
    args: ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv'],
    files: { 'sweep.yaml': SWEEP, 'out.csv.partial': PNG },
    stderr: [/^blis: \S+out\.csv\.partial: expected a blis-sweep-journal\/1 journal \(text\); rerun with --restart to replace it, found binary data$/],
    exactLines: true,
  },
  {
    name: 'sweep journal over 64 MiB on resume',
    args: ['sweep', '$DIR/sweep.yaml', '--output', '$DIR/out.csv'],
    files: { 'sweep.yaml': SWEEP, 'out.csv.partial': () => `{"format":"blis-sweep-journal/1","hash":"x"}\n${'-'.repeat(64 * 1024 * 1024)}\n` },
    stderr: [/^blis: \S+out\.csv\.partial: expected a blis-sweep-journal\/1 journal of at most 64 MiB; rerun with --restart to replace it, found 64 MiB \(67108910 bytes\)$/],
    exactLines: true,
  },
  {
    name: 'calibrate --sim-results of binary data',
    args: [...CALIBRATE, '--sim-results', '$DIR/sim.png'],
    files: { ...TRACE, 'sim.png': PNG },
    stderr: [/^blis: \S+sim\.png: expected a results JSON file \(text\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'calibrate --sim-results over 256 MiB',
    args: [...CALIBRATE, '--sim-results', '$DIR/big.json'],
    files: { ...TRACE, 'big.json': padded(256 * 1024 * 1024 + 1) },
    stderr: [/^blis: \S+big\.json: expected a results JSON file of at most 256 MiB, found 256 MiB \(268435457 bytes\)$/],
    exactLines: true,
  },
  {
    name: 'calibrate --sim-metrics of binary data',
    args: [...CALIBRATE, '--sim-results', '$DIR/sim.json', '--sim-metrics', '$DIR/m.png'],
    files: { ...TRACE, 'm.png': PNG },
    stderr: [/^blis: \S+m\.png: expected a metrics JSON file \(text\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'evaluate --request of binary data',
    args: ['evaluate', '--request', '$DIR/req.png'],
    files: { 'req.png': PNG },
    stderr: [/^blis: \S+req\.png: expected a blis-eval\/1 request \(JSON\) \(text\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'evaluate --request over 16 MiB',
    args: ['evaluate', '--request', '$DIR/req.json'],
    files: { 'req.json': padded(16 * 1024 * 1024 + 1) },
    stderr: [/^blis: \S+req\.json: expected a blis-eval\/1 request \(JSON\) of at most 16 MiB, found 16 MiB \(16777217 bytes\)$/],
    exactLines: true,
  },
  {
    name: 'evaluate --request that does not exist',
    args: ['evaluate', '--request', '$DIR/none.json'],
    stderr: [/^blis: --request \S+none\.json: expected a readable JSON file, found ENOENT \(no such file or directory\)$/],
    exactLines: true,
  },
];
