import { describe, expect, it } from 'vitest';
import { parseHelp } from '../blis-flags.js';

// tools/blis-flags.ts reads cobra's --help layout: these lines are in its shape, hand-written.

const HELP = `Do a thing

Usage:
  blis thing [flags]

Flags:
      --alpha float64Slice          Coefficients (default [0.000000,0.000000])
      --api-format string           API format (default "completions")
  -h, --help                        help for thing
      --horizon int                 Horizon (default 9223372036854775807)
      --no-streaming                Disable streaming
      --scrape-kv-metrics blis calibrate   Scrape for downstream \`blis calibrate\`. Off by default
      --timeout int                 Deadline (default 300s matches the client). Rejects 0. (default 300)
      --window duration             Window. 0 = disabled.

Global Flags:
      --other string   not this command's
`;

describe('parseHelp', () => {
  it("reads each flag's name, type and printed default, and nothing past the section", () => {
    expect(parseHelp(HELP)).toEqual([
      { name: 'alpha', type: 'float64Slice', default: '[0.000000,0.000000]' },
      { name: 'api-format', type: 'string', default: 'completions' },
      { name: 'horizon', type: 'int', default: '9223372036854775807' },
      { name: 'no-streaming', type: 'bool', default: null },
      // A backquoted word in the description is what cobra prints as the type: still a switch.
      { name: 'scrape-kv-metrics', type: 'bool', default: null },
      // The last "(default X)" is the default; an earlier one is prose.
      { name: 'timeout', type: 'int', default: '300' },
      { name: 'window', type: 'duration', default: null },
    ]);
  });

  it('refuses text without a Flags: section or with a line it cannot read', () => {
    expect(() => parseHelp('Usage:\n  blis\n')).toThrow('no "Flags:" section');
    expect(() => parseHelp('Flags:\n  what is this\n')).toThrow('unparsed help line');
  });
});
