import { describe, expect, it } from 'vitest';
import { parsesOnce } from '../src/launch/zod-jitless.js';

// Which commands turn zod's compiled parsers off (src/launch/zod-jitless.ts). The CLI's other
// tests run the binary, so its every validation message is checked in that mode.
describe('parsesOnce', () => {
  it('is true for one-shot commands and false for the ones that keep parsing', () => {
    for (const argv of [['run', '--num-requests', '10'], ['replay', '--trace', 't.csv'], ['evaluate'], ['evaluate', '--request', 'r.json'], ['sweep', 's.yaml'], ['--version'], []])
      expect(parsesOnce(argv), argv.join(' ')).toBe(true);
    for (const argv of [['evaluate', '--serve'], ['worker', '--redis', 'redis://x'], ['serve-sim', '--port', '0']]) expect(parsesOnce(argv), argv.join(' ')).toBe(false);
  });
});
