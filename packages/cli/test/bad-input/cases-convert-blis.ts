import type { BadInputCase } from './bad-input-case.js';

// BLIS's converters (`blis convert preset|servegen|inference-perf`): every flag and file checked
// before anything is written, each problem named by its flag or its file.

const TRACE_ROW = '0,2.5,1.1,Gamma,0.8,0.05\n600,2.0,1.2,Gamma,0.7,0.06\n';
const DATASET = JSON.stringify({ '0': { input_tokens: '{100: 0.5, 200: 0.5}', output_tokens: '{50: 1.0}' } });

export const cases: readonly BadInputCase[] = [
  { name: 'convert preset without --name', args: ['convert', 'preset'], stderr: ['--name: expected a value (`blis convert preset` requires it), found nothing'], exactLines: true },
  { name: 'convert preset of an unknown name', args: ['convert', 'preset', '--name', 'chatbott'], stderr: ['--name: expected a preset of the catalogue: chatbot, contentgen, multidoc, summarization, found "chatbott"'], exactLines: true },
  { name: 'convert preset --rate 0', args: ['convert', 'preset', '--name', 'chatbot', '--rate', '0'], stderr: ['--rate: expected a positive number, found "0"'], exactLines: true },
  { name: 'convert preset --num-requests 1.5', args: ['convert', 'preset', '--name', 'chatbot', '--num-requests', '1.5'], stderr: ['--num-requests: expected a positive integer, found "1.5"'], exactLines: true },
  {
    name: 'convert preset --defaults-filepath missing',
    args: ['convert', 'preset', '--name', 'chatbot', '--defaults-filepath', '$DIR/nope.yaml'],
    stderr: [/^blis: --defaults-filepath \S+nope\.yaml: expected a readable BLIS defaults\.yaml, found ENOENT/],
    exactLines: true,
  },
  {
    name: 'convert preset --defaults-filepath with a fractional token count',
    args: ['convert', 'preset', '--name', 'p', '--defaults-filepath', '$DIR/d.yaml'],
    files: { 'd.yaml': 'workloads:\n  p:\n    prompt_tokens: 2.5\n' },
    stderr: [/^blis: \S+d\.yaml:3 workloads\.p\.prompt_tokens: expected a non-negative whole number of tokens, found 2\.5$/],
    exactLines: true,
  },
  {
    name: 'convert preset --defaults-filepath without the preset',
    args: ['convert', 'preset', '--name', 'chatbot', '--defaults-filepath', '$DIR/d.yaml'],
    files: { 'd.yaml': 'workloads:\n  other:\n    prompt_tokens: 10\n' },
    stderr: [/^blis: --name: expected a preset of \S+d\.yaml: other, found "chatbot"$/],
    exactLines: true,
  },
  {
    name: 'convert preset --defaults-filepath with an unknown section (BLIS decodes the whole file strictly)',
    args: ['convert', 'preset', '--name', 'p', '--defaults-filepath', '$DIR/d.yaml'],
    files: { 'd.yaml': 'workloads:\n  p:\n    prompt_tokens: 10\nmodels: {}\n' },
    stderr: [/^blis: \S+d\.yaml:4 models: expected a section of BLIS's defaults\.yaml \(defaults, version, workloads, trained_physics_coefficients, lora, kv_offload_devices\), found unknown field "models"$/],
    exactLines: true,
  },
  { name: 'convert inference-perf without --spec', args: ['convert', 'inference-perf'], stderr: ['--spec: expected a value (`blis convert inference-perf` requires it), found nothing'], exactLines: true },
  {
    name: 'convert inference-perf of a spec without the section',
    args: ['convert', 'inference-perf', '--spec', '$DIR/s.yaml'],
    files: { 's.yaml': 'version: "2"\nclients: []\n' },
    stderr: [/^blis: \S+s\.yaml: expected a workload spec with an inference_perf section, found no inference_perf section$/],
    exactLines: true,
  },
  {
    name: 'convert inference-perf of a negative stage rate',
    args: ['convert', 'inference-perf', '--spec', '$DIR/s.yaml'],
    files: { 's.yaml': 'version: "2"\ninference_perf:\n  stages:\n    - rate: -1\n      duration: 10\n  shared_prefix: {num_unique_system_prompts: 1, num_users_per_system_prompt: 1, system_prompt_len: 0, question_len: 5, output_len: 5}\n' },
    stderr: [/^blis: \S+s\.yaml:4 inference_perf\.stages\[0\]\.rate: expected a number > 0, found -1$/],
  },
  { name: 'convert servegen without --path', args: ['convert', 'servegen'], stderr: ['--path: expected a value (`blis convert servegen` requires it), found nothing'], exactLines: true },
  { name: 'convert servegen --time noon', args: ['convert', 'servegen', '--path', '$DIR/', '--time', 'noon'], stderr: [/^blis: --time: expected one of midnight, morning, afternoon, found "noon"/], exactLines: true },
  { name: 'convert servegen --window-duration-seconds 0', args: ['convert', 'servegen', '--path', '$DIR/', '--window-duration-seconds', '0'], stderr: ['--window-duration-seconds: expected a positive integer, found "0"'], exactLines: true },
  { name: 'convert servegen --drain-timeout-seconds -1', args: ['convert', 'servegen', '--path', '$DIR/', '--drain-timeout-seconds', '-1'], stderr: ['--drain-timeout-seconds: expected a non-negative integer, found "-1"'], exactLines: true },
  { name: 'convert servegen of a missing directory', args: ['convert', 'servegen', '--path', '$DIR/none'], stderr: [/^blis: --path \S+none: expected a readable ServeGen data directory, found ENOENT/], exactLines: true },
  {
    name: 'convert servegen of a file',
    args: ['convert', 'servegen', '--path', '$DIR/chunk-0-trace.csv'],
    files: { 'chunk-0-trace.csv': TRACE_ROW },
    stderr: [/^blis: --path \S+chunk-0-trace\.csv: expected a ServeGen data directory .*, found a file$/],
    exactLines: true,
  },
  { name: 'convert servegen of a directory without trace files', args: ['convert', 'servegen', '--path', '$DIR/'], stderr: [/^blis: --path \S+: expected ServeGen data: chunk-<id>-trace\.csv files, found none$/], exactLines: true },
  {
    name: 'convert servegen of a trace with a bare quote',
    args: ['convert', 'servegen', '--path', '$DIR/'],
    files: { 'chunk-0-trace.csv': `${TRACE_ROW}1200,1"5,1.0,Gamma,0.5,0.1\n`, 'chunk-0-dataset.json': DATASET },
    stderr: [/^blis: \S+chunk-0-trace\.csv: expected a readable ServeGen trace CSV, found parse error on line 3: bare " in non-quoted-field$/],
    exactLines: true,
  },
  {
    name: 'convert servegen of a chunk without its dataset',
    args: ['convert', 'servegen', '--path', '$DIR/'],
    files: { 'chunk-0-trace.csv': TRACE_ROW },
    stderr: [/^blis: warning: reasoning detection: chunk-0-dataset\.json: ENOENT .*\(read as language data\)$/, /^blis: \S+chunk-0-dataset\.json: expected the dataset of chunk 0, found ENOENT/],
    exactLines: true,
  },
  {
    name: 'convert servegen of a malformed PMF',
    args: ['convert', 'servegen', '--path', '$DIR/'],
    files: { 'chunk-0-trace.csv': TRACE_ROW, 'chunk-0-dataset.json': JSON.stringify({ '0': { input_tokens: '{100 0.5}', output_tokens: '{50: 1.0}' } }) },
    stderr: [/^blis: \S+chunk-0-dataset\.json: expected a ServeGen dataset JSON, found window 0 input_tokens: an invalid key:value pair "100 0\.5"$/],
    exactLines: true,
  },
  {
    name: 'convert servegen of windows without fitted shape and scale (BLIS refuses the averaged 0)',
    args: ['convert', 'servegen', '--path', '$DIR/'],
    files: { 'chunk-0-trace.csv': '0,2.5,1.1,Gamma\n600,2.0,1.2,Gamma\n1200,2.0,1.2,Gamma\n', 'chunk-0-dataset.json': DATASET },
    stderr: [/^blis: --path \S+: expected data whose cohort\[0\] \(midnight-critical\) has a valid arrival\.shape \(positive\), as BLIS validates the converted spec, found 0$/],
    exactLines: true,
  },
];
