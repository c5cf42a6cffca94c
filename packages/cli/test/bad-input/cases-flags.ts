import type { BadInputCase } from './bad-input-case.js';

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];

/** Command-line flags: values of the wrong kind, unknown flags and options. */
export const cases: readonly BadInputCase[] = [
  { name: 'unknown flag', args: [...RUN, '--log-level', 'info'], stderr: ['--log-level: expected an option of `blis run` (see `blis run --help`), found an unknown option'], exactLines: true },
  { name: '--fitness-weights with no entry', args: [...RUN, '--fitness-weights', ','], stderr: [/^blis: --fitness-weights: expected /], exactLines: true },
  { name: '--rate not a number', args: [...RUN, '--rate', 'fast'], stderr: [/^blis: --rate: expected a positive number, found "fast"$/], exactLines: true },
  { name: '--num-instances zero', args: [...RUN, '--num-instances', '0'], stderr: [/^blis: --num-instances: expected a positive integer/], exactLines: true },
];
