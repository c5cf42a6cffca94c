import type { BadInputCase } from './bad-input-case.js';

/** Output flags of `blis run`: what they accept. */
export const cases: readonly BadInputCase[] = [
  {
    name: '--log with a level BLIS does not have',
    args: ['run', '--num-requests', '3', '--log', 'verbose'],
    stderr: ['--log: expected one of trace, debug, info, warn, error, fatal, panic, found "verbose"'],
    exactLines: true,
  },
  { name: '--log on blis compare, which has no such flag', args: ['compare', '--num-requests', '3', '--log', 'info'], stderr: [/^blis: --log: expected an option of `blis compare`/], exactLines: true },
];
