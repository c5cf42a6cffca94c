import { describe, expect, it } from 'vitest';
import { flushed } from '../src/output/exit-flushed.js';

// `blis evaluate --serve` exits on purpose at the end of its input (output/exit-flushed.ts):
// only once everything it wrote has left the process.

/** A stand-in for stdout: `pending` bytes queued, and the callbacks of the writes made since. */
function stream(pending: number) {
  const writes: { chunk: string; done: () => void }[] = [];
  return {
    writes,
    writableLength: pending,
    write(chunk: string, done: () => void) {
      writes.push({ chunk, done });
      return true;
    },
  };
}

describe('flushed', () => {
  it('resolves at once, writing nothing, when nothing is queued', async () => {
    const s = stream(0);
    await flushed(s as never);
    expect(s.writes).toEqual([]);
  });

  it('resolves only when a write queued after the pending bytes has completed', async () => {
    const s = stream(4096);
    let done = false;
    const p = flushed(s as never).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(s.writes.map((w) => w.chunk)).toEqual(['']);
    expect(done).toBe(false);
    s.writes[0].done();
    await p;
    expect(done).toBe(true);
  });
});
