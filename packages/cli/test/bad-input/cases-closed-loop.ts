import type { BadInputCase } from './bad-input-case.js';

// Closed-loop clients (issue #40): `concurrency`, `think_time_us`, `closed_loop` and
// `multi_turn.single_session`, each refused at its line as BLIS's Validate refuses it.

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'];

/** One client from line 6, its extra fields `extra` (indented 4) from line 10. */
const spec = (extra: string, rate = 0) =>
  `version: "2"\nseed: 1\naggregate_rate: 0\nnum_requests: 50\nclients:\n  - id: users\n    rate_fraction: ${rate}\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n${extra}`;

const at = (line: number, field: string, rest: string) => new RegExp(`^blis: \\S+spec\\.yaml:${line} ${field.replace(/[[\].]/g, '\\$&')}: expected ${rest}`);

export const cases: readonly BadInputCase[] = [
  { name: 'concurrency -1', args: RUN, files: { 'spec.yaml': spec('    concurrency: -1\n') }, stderr: [at(10, 'clients[0].concurrency', 'a number >= 0, found -1')] },
  { name: 'concurrency 2.5', args: RUN, files: { 'spec.yaml': spec('    concurrency: 2.5\n') }, stderr: [at(10, 'clients[0].concurrency', 'an integer, found 2.5')] },
  { name: 'think_time_us -5', args: RUN, files: { 'spec.yaml': spec('    concurrency: 2\n    think_time_us: -5\n') }, stderr: [at(11, 'clients[0].think_time_us', 'a number >= 0, found -5')] },
  {
    name: 'concurrency with a rate_fraction',
    args: [...RUN],
    files: { 'spec.yaml': spec('    concurrency: 2\n', 1).replace('aggregate_rate: 0', 'aggregate_rate: 5') },
    stderr: [at(7, 'clients[0].rate_fraction', 'rate_fraction 0 on a concurrency client \\(the two are exclusive\\), found 1')],
  },
  {
    name: 'concurrency beside a multi-turn client',
    args: RUN,
    files: {
      'spec.yaml': `${spec('    concurrency: 2\n')}  - id: chat\n    rate_fraction: 0\n    concurrency: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n    reasoning: {multi_turn: {max_rounds: 2}}\n`,
    },
    stderr: [at(10, 'clients[0].concurrency', 'no multi-turn client beside concurrency clients')],
  },
  { name: 'closed_loop not a boolean', args: RUN, files: { 'spec.yaml': spec('    concurrency: 1\n    closed_loop: sometimes\n') }, stderr: [at(11, 'clients[0].closed_loop', 'true or false, found "sometimes"')] },
  {
    name: 'single_session not a boolean',
    args: RUN,
    files: { 'spec.yaml': spec('    reasoning: {multi_turn: {max_rounds: 2, single_session: 3}}\n', 1).replace('aggregate_rate: 0', 'aggregate_rate: 5') },
    stderr: [at(10, 'clients[0].reasoning.multi_turn.single_session', 'true or false, found 3')],
  },
];
