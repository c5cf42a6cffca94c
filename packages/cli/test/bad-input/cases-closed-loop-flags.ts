import { TRACEV2_COLUMNS } from '@blis/workload/internal';
import type { BadInputCase } from './bad-input-case.js';

// Issues 39 and 40: the closed-loop flags. `blis run --concurrency/--think-time-ms` and
// `blis replay --session-mode/--think-time-ms/--think-time-dist`, refused where BLIS refuses them
// (negative values, think time without closed-loop, both think-time flags, --concurrency with
// --rate or --workload-spec, a bad session_context_growth, rounds not numbered 0, 1, 2, ...), and
// where they could only be misread (a think time without --concurrency on run, a preset or time
// scale beside a closed loop).

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct'];
const ROW = (id: number, session: string, round: number, at: number) => `${id},c,,,${session},${round},,0,false,100,10,0,0,0,0,0,,0,0,${at},${at},0,0,0,ok,,`;
const TRACE = `${TRACEV2_COLUMNS.join(',')}\n${ROW(0, 's1', 0, 0)}\n${ROW(1, 's1', 1, 1000)}\n`;
const HEADER = 'trace_version: 3\ntime_unit: microseconds\n';
const REPLAY = ['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace-header', '$DIR/t.yaml', '--trace-data', '$DIR/t.csv'];
const FILES = { 't.yaml': HEADER, 't.csv': TRACE };
const CLOSED = [...REPLAY, '--session-mode', 'closed-loop'];
const SPEC = 'version: "2"\nseed: 1\naggregate_rate: 5\nnum_requests: 5\nclients:\n  - id: c\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 50}}\n    output_distribution: {type: constant, params: {value: 5}}\n';
const NEEDS_CLOSED = (flag: string) => `${flag}: expected --session-mode closed-loop beside it (think time paces closed-loop sessions), found --session-mode fixed`;

export const cases: readonly BadInputCase[] = [
  { name: 'run --concurrency -1', args: [...RUN, '--concurrency', '-1', '--num-requests', '5'], stderr: ['--concurrency: expected a non-negative integer, found "-1"'], exactLines: true },
  { name: 'run --concurrency 2.5', args: [...RUN, '--concurrency', '2.5', '--num-requests', '5'], stderr: ['--concurrency: expected a non-negative integer, found "2.5"'], exactLines: true },
  {
    name: 'run --concurrency with --rate',
    args: [...RUN, '--concurrency', '4', '--rate', '5', '--num-requests', '5'],
    stderr: ['--concurrency: expected a closed loop without an arrival rate, preset or arrival process, found --rate'],
    exactLines: true,
  },
  {
    name: 'run --concurrency with a preset and an arrival process',
    args: [...RUN, '--concurrency', '4', '--workload', 'chatbot', '--arrival-process', 'poisson', '--num-requests', '5'],
    stderr: ['--concurrency: expected a closed loop without an arrival rate, preset or arrival process, found --workload, --arrival-process'],
    exactLines: true,
  },
  {
    name: 'run --concurrency with --workload-spec',
    args: [...RUN, '--concurrency', '4', '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': SPEC },
    stderr: ['--concurrency: expected no --workload-spec beside it (define clients[].concurrency in the spec instead), found --workload-spec'],
    exactLines: true,
  },
  {
    name: 'run --concurrency without --num-requests or --horizon',
    args: [...RUN, '--concurrency', '4'],
    stderr: ['--num-requests: expected a bound on the closed loop: --num-requests or --horizon (--concurrency has no default request count), found neither'],
    exactLines: true,
  },
  {
    name: 'run --think-time-ms without --concurrency',
    args: [...RUN, '--think-time-ms', '500', '--num-requests', '5'],
    stderr: ['--think-time-ms: expected --concurrency N > 0 beside it (think time belongs to the closed loop), found no --concurrency'],
    exactLines: true,
  },
  {
    name: 'run --think-time-ms with --concurrency 0',
    args: [...RUN, '--concurrency', '0', '--think-time-ms', '500', '--num-requests', '5'],
    stderr: ['--think-time-ms: expected --concurrency N > 0 beside it (think time belongs to the closed loop), found --concurrency 0'],
    exactLines: true,
  },
  { name: 'run --think-time-ms -1', args: [...RUN, '--concurrency', '2', '--think-time-ms', '-1', '--num-requests', '5'], stderr: ['--think-time-ms: expected a non-negative integer, found "-1"'], exactLines: true },
  { name: 'replay --session-mode unknown', args: [...REPLAY, '--session-mode', 'open'], files: FILES, stderr: ['--session-mode: expected one of fixed, closed-loop, found "open"'], exactLines: true },
  { name: 'replay --think-time-ms without closed-loop', args: [...REPLAY, '--think-time-ms', '500'], files: FILES, stderr: [NEEDS_CLOSED('--think-time-ms')], exactLines: true },
  { name: 'replay --think-time-dist without closed-loop', args: [...REPLAY, '--think-time-dist', 'constant:value=1s'], files: FILES, stderr: [NEEDS_CLOSED('--think-time-dist')], exactLines: true },
  {
    name: 'replay --think-time-ms and --think-time-dist',
    args: [...CLOSED, '--think-time-ms', '1', '--think-time-dist', 'constant:value=1s'],
    files: FILES,
    stderr: ['--think-time-dist: expected one of --think-time-ms and --think-time-dist, found both'],
    exactLines: true,
  },
  { name: 'replay --think-time-ms -5', args: [...CLOSED, '--think-time-ms', '-5'], files: FILES, stderr: ['--think-time-ms: expected a non-negative integer, found "-5"'], exactLines: true },
  {
    name: 'replay --think-time-dist lognormal without sigma',
    args: [...CLOSED, '--think-time-dist', 'lognormal:mu=1'],
    files: FILES,
    stderr: ['--think-time-dist sigma: expected a value ("sigma=..."), found nothing (the parameter is missing)'],
    exactLines: true,
  },
  { name: 'replay --think-time-dist of an unknown type', args: [...CLOSED, '--think-time-dist', 'gamma:k=1'], files: FILES, stderr: ['--think-time-dist type: expected one of "constant", "lognormal", found "gamma"'], exactLines: true },
  {
    name: 'replay --think-time-dist with a negative time',
    args: [...CLOSED, '--think-time-dist', 'constant:value=-2s'],
    files: FILES,
    stderr: ['--think-time-dist value: expected a time >= 0 with a unit s, ms or us (a bare number is ms), found "-2s"'],
    exactLines: true,
  },
  {
    name: 'replay closed-loop with --time-scale',
    args: [...CLOSED, '--time-scale', '2'],
    files: FILES,
    stderr: ['--time-scale: expected 1 with --session-mode closed-loop (recorded think times are not scaled), found 2'],
    exactLines: true,
  },
  {
    name: 'replay closed-loop of a trace that is not TraceV2',
    args: ['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace', '$DIR/t.csv', '--trace-format', 'azure', '--session-mode', 'closed-loop'],
    files: FILES,
    stderr: ['--session-mode: expected a TraceV2 trace for closed-loop (its session_id and round_index columns), found --trace-format azure'],
    exactLines: true,
  },
  {
    name: 'replay closed-loop of an Azure trace (detected)',
    args: ['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace', '$DIR/azure.csv', '--session-mode', 'closed-loop'],
    files: { 'azure.csv': 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n' },
    stderr: [/^blis: \S+azure\.csv: expected a TraceV2 trace for closed-loop session replay \(its session_id and round_index columns\), found an Azure trace CSV$/],
    exactLines: true,
  },
  {
    name: 'replay closed-loop: session_context_growth misspelt',
    args: CLOSED,
    files: { 't.yaml': `${HEADER}session_context_growth: Accumulate\n`, 't.csv': TRACE },
    stderr: [/^blis: \S+t\.yaml session_context_growth: expected "accumulate" or nothing \(each round is the group prefix and its own tokens\), found "Accumulate"$/],
    exactLines: true,
  },
  {
    name: 'replay closed-loop: a session missing a round',
    args: CLOSED,
    files: { 't.yaml': HEADER, 't.csv': `${TRACEV2_COLUMNS.join(',')}\n${ROW(0, 's1', 0, 0)}\n${ROW(1, 's1', 2, 1000)}\n` },
    stderr: [/^blis: \S+t\.csv:3 round_index: expected session "s1"'s rounds numbered 0, 1, 2, \.\.\. without gaps or repeats \(round 1 here\), found 2$/],
    exactLines: true,
  },
  {
    name: 'replay closed-loop: a round given twice',
    args: CLOSED,
    files: { 't.yaml': HEADER, 't.csv': `${TRACEV2_COLUMNS.join(',')}\n${ROW(0, 's1', 0, 0)}\n${ROW(1, 's1', 0, 1000)}\n` },
    stderr: [/^blis: \S+t\.csv:3 round_index: expected session "s1"'s rounds numbered 0, 1, 2, \.\.\. without gaps or repeats \(round 1 here\), found 0$/],
    exactLines: true,
  },
];
