import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBoundedText } from '../src/bounded-text-file.js';

const dir = mkdtempSync(join(tmpdir(), 'blis-bounded-'));
const opts = { maxBytes: 16, what: 'test file' };

describe('readBoundedText', () => {
  it('reads a regular file within the limit, refuses one past it by its size', () => {
    const small = join(dir, 'small.txt');
    writeFileSync(small, 'sixteen bytes ok');
    expect(readBoundedText(small, opts)).toEqual({ ok: true, text: 'sixteen bytes ok' });
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'seventeen bytes!!');
    expect(readBoundedText(big, opts)).toEqual({ ok: false, issue: { file: big, expected: 'a test file of at most 16 bytes', found: '17 bytes' } });
  });

  it('refuses a device, a FIFO and a directory by name, without reading (or opening) them', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      ['/dev/zero', 'a character device'],
      [fifo, 'a named pipe (FIFO)'],
      [dir, 'a directory'],
    ])
      expect(readBoundedText(path, opts)).toEqual({ ok: false, issue: { file: path, expected: 'a test file (a regular file)', found: kind } });
  });
});
