import { describe, expect, it } from 'vitest';
import { type BoundedLine, boundedLines } from '../src/inputs/bounded-lines.js';

async function collect(chunks: string[], max: number): Promise<BoundedLine[]> {
  async function* source() {
    for (const c of chunks) yield Buffer.from(c, 'utf8');
  }
  const out: BoundedLine[] = [];
  for await (const l of boundedLines(source(), max)) out.push(l);
  return out;
}

describe('boundedLines', () => {
  it('splits lines across chunk boundaries and drops a trailing \\r', async () => {
    expect(await collect(['ab', 'c\r\nde', '\nf'], 10)).toEqual([{ text: 'abc' }, { text: 'de' }, { text: 'f' }]);
  });

  it('keeps empty lines and yields nothing after a final newline', async () => {
    expect(await collect(['a\n\nb\n'], 10)).toEqual([{ text: 'a' }, { text: '' }, { text: 'b' }]);
  });

  it('reports a line over the limit once, whatever its length, and resumes after its newline', async () => {
    expect(await collect(['12345', '67890', '123\nok\n'], 10)).toEqual([{ tooLong: true }, { text: 'ok' }]);
    expect(await collect(['12345678901'], 10)).toEqual([{ tooLong: true }]);
  });

  it('accepts a line of exactly the limit', async () => {
    expect(await collect(['1234567890\n'], 10)).toEqual([{ text: '1234567890' }]);
  });

  it('keeps a multi-byte character split across chunks whole', async () => {
    const bytes = Buffer.from('é\n', 'utf8');
    async function* source() {
      yield bytes.subarray(0, 1);
      yield bytes.subarray(1);
    }
    const out: BoundedLine[] = [];
    for await (const l of boundedLines(source(), 10)) out.push(l);
    expect(out).toEqual([{ text: 'é' }]);
  });
});
