import type { BadInputCase } from './bad-input-case.js';

/** Random-looking bytes, as an image or archive given by mistake would be. */
const BINARY = Uint8Array.from({ length: 2048 }, (_, i) => (i * 7919) % 256);

/** Output flags of `blis run`, and the result files `blis report` reads: what they accept. */
export const cases: readonly BadInputCase[] = [
  {
    name: '--log with a level BLIS does not have',
    args: ['run', '--num-requests', '3', '--log', 'verbose'],
    stderr: ['--log: expected one of trace, debug, info, warn, error, fatal, panic, found "verbose"'],
    exactLines: true,
  },
  { name: '--log on blis compare, which has no such flag', args: ['compare', '--num-requests', '3', '--log', 'info'], stderr: [/^blis: --log: expected an option of `blis compare`/], exactLines: true },
  {
    name: 'blis report given a binary file',
    args: ['report', '$DIR/bin.json', '-o', '$DIR/out.html'],
    files: { 'bin.json': BINARY },
    stderr: [/^blis: \S+bin\.json: expected a JSON text file \(a blis run result\), found binary data$/],
    exactLines: true,
  },
  {
    name: 'blis report given JSON broken by a control character: the excerpt is escaped',
    args: ['report', '$DIR/bad.json', '-o', '$DIR/out.html'],
    files: { 'bad.json': '{"completed_requests": \u0007\u001b[31mred}' },
    // Escaped, the bytes read as text (`\u0007`); raw, they would ring the terminal and turn it red.
    stderr: [/^blis: \S+bad\.json:1:24: expected JSON \(a blis run result\): a JSON value \(.*\), found "\\u0007\\u001b\[31mred}"$/],
    exactLines: true,
  },
];
