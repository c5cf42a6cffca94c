import type { BadInputCase } from './bad-input-case.js';

// Multimodal clients (issue #40) and the E/P/D encode pool (issue #39): every field and flag
// checked before the run, with BLIS's rules (its ValidatePoolTopology and --encode-* checks) and
// ours where BLIS would run a multimodal section as nothing.

const RUN = ['run', '--latency-model', 'blackbox', '--num-requests', '5'];
const SPEC_RUN = ['run', '--latency-model', 'blackbox', '--workload-spec', '$DIR/spec.yaml'];
const TRACE = '{"timestamp": 0, "input_length": 10, "output_length": 5}\n{"timestamp": 1500, "input_length": 10, "output_length": 5}\n';

/** A one-client spec whose `multimodal:` key is line 10, its fields (indented 6) from line 11. */
const spec = (fields: string, extra = '') =>
  `version: "2"\nseed: 1\naggregate_rate: 20\nnum_requests: 50\nclients:\n  - id: v\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n    multimodal:${fields}\n${extra}`;

const at = (line: number, field: string, rest: string) => new RegExp(`^blis: \\S+spec\\.yaml:${line} ${field.replace(/[[\].]/g, '\\$&')}: expected ${rest}`);

export const cases: readonly BadInputCase[] = [
  {
    name: 'multimodal: an image distribution without its count',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      image_distribution: {type: constant, params: {value: 576}}') },
    stderr: [at(11, 'clients[0].multimodal.image_count_distribution', 'image_count_distribution beside image_distribution \\(a medium needs both')],
  },
  {
    name: 'multimodal: an audio count without its token distribution',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      audio_count_distribution: {type: constant, params: {value: 2}}') },
    stderr: [at(11, 'clients[0].multimodal.audio_distribution', 'audio_distribution beside audio_count_distribution')],
  },
  {
    name: 'multimodal: an empty section',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec(' {}') },
    stderr: [at(10, 'clients[0].multimodal', 'at least a text_distribution or one medium \\(image, audio or video distribution and count\\), found none')],
  },
  {
    name: 'multimodal: a text distribution with min above max',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      text_distribution: {type: gaussian, params: {mean: 100, std_dev: 5, min: 50, max: 20}}') },
    stderr: [at(11, 'clients[0].multimodal.text_distribution.params.min', 'min <= max \\(20\\), found 50')],
  },
  {
    name: 'multimodal: a constant 0 tokens per audio clip',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      audio_distribution: {type: constant, params: {value: 0}}\n      audio_count_distribution: {type: constant, params: {value: 1}}') },
    stderr: [at(11, 'clients[0].multimodal.audio_distribution.params.value', 'a number > 0, found 0')],
  },
  {
    name: 'multimodal: an unknown distribution type',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      video_distribution: {type: uniform, params: {value: 3}}\n      video_count_distribution: {type: constant, params: {value: 1}}') },
    stderr: [at(11, 'clients[0].multimodal.video_distribution.type', 'one of "gaussian", "exponential", "lognormal", "pareto_lognormal", "constant", "empirical", found "uniform"')],
  },
  {
    name: 'multimodal: an unknown field',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      text_distribution: {type: constant, params: {value: 10}}\n      txt: 3') },
    stderr: [at(12, 'clients[0].multimodal.txt', 'a known field, found unknown field "txt"')],
  },
  {
    name: 'multimodal on a multi-turn client (BLIS would draw its rounds from input_distribution)',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      text_distribution: {type: constant, params: {value: 10}}', '    reasoning:\n      multi_turn: {max_rounds: 2}\n') },
    stderr: [at(11, 'clients[0].multimodal', 'no multimodal section on a multi-turn client')],
  },
  {
    name: 'multimodal in a spec on the per-window generator',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      text_distribution: {type: constant, params: {value: 10}}', '    lifecycle: {windows: [{start_us: 0, end_us: 1000000, trace_rate: 5}]}\n') },
    stderr: [at(11, 'clients[0].multimodal', 'no multimodal section in a spec on the per-window generator \\(client "v" has per-window overrides')],
  },
  {
    name: 'multimodal on a cohort: its count distribution a string',
    args: SPEC_RUN,
    files: {
      'spec.yaml':
        'version: "2"\nseed: 1\naggregate_rate: 20\nnum_requests: 50\ncohorts:\n  - id: web\n    population: 2\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n    multimodal:\n      image_distribution: {type: constant, params: {value: 576}}\n      image_count_distribution: two\n',
    },
    stderr: [at(13, 'cohorts[0].multimodal.image_count_distribution', '')],
  },
  {
    name: 'multimodal prompts past the tokens-per-request limit',
    args: SPEC_RUN,
    files: { 'spec.yaml': spec('\n      image_distribution: {type: constant, params: {value: 16000000}}\n      image_count_distribution: {type: constant, params: {value: 2}}') },
    stderr: [/^blis: \S+spec\.yaml clients\[0\]\.multimodal\.image_distribution: expected prompts of at most 16777216 tokens \(text plus every item\), found more than 16777216 tokens in one prompt$/],
  },
  { name: '--encode-instances negative', args: [...RUN, '--encode-instances', '-1'], stderr: ['--encode-instances: expected a non-negative integer, found "-1"'] },
  { name: '--encode-instances not a number', args: [...RUN, '--encode-instances', 'x'], stderr: ['--encode-instances: expected a non-negative integer, found "x"'] },
  { name: '--encode-decider unknown', args: [...RUN, '--encode-decider', 'bogus'], stderr: ['--encode-decider: expected one of never, always, multimodal, found "bogus"'] },
  {
    name: '--encode-decider always without an encode pool',
    args: [...RUN, '--encode-decider', 'always'],
    stderr: ['--encode-decider: expected --encode-instances > 0 for --encode-decider always (the encode pool is disabled), found --encode-instances 0'],
  },
  {
    name: '--encode-instances without a decode-capable pool',
    args: [...RUN, '--encode-instances', '1', '--encode-decider', 'multimodal'],
    stderr: ['--encode-instances: expected a decode-capable pool beside --encode-instances (--prefill-instances and --decode-instances, or --prefill-decode-instances), found --encode-instances 1 and no P/D instances'],
  },
  {
    name: 'the pools with the encode pool past --num-instances',
    args: [...RUN, '--num-instances', '3', '--prefill-instances', '1', '--decode-instances', '1', '--encode-instances', '2', '--encode-decider', 'always'],
    stderr: ['--encode-instances: expected --prefill-instances + --decode-instances + --prefill-decode-instances + --encode-instances <= --num-instances (3), found 1 + 1 + 0 + 2 = 4'],
  },
  {
    name: 'replay: --encode-decider multimodal without an encode pool',
    args: ['replay', '--latency-model', 'blackbox', '--trace', '$DIR/t.jsonl', '--encode-decider', 'multimodal'],
    files: { 't.jsonl': TRACE },
    stderr: ['--encode-decider: expected --encode-instances > 0 for --encode-decider multimodal (the encode pool is disabled), found --encode-instances 0'],
  },
];
