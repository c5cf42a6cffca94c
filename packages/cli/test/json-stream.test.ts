import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJsonChunks, writeJsonFile } from '../src/output/json-stream.js';
import { stringifyResult } from '../src/output/json-output.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The results file is written in chunks so millions of requests never make one string; the
// bytes must stay those of JSON.stringify(value, null, 2), which `blis report` and users read.

function chunked(value: unknown, chunkChars: number, smallNodes: number): { text: string; longest: number } {
  const parts: string[] = [];
  writeJsonChunks(value, (c) => parts.push(c), { chunkChars, smallNodes });
  return { text: parts.join(''), longest: Math.max(...parts.map((p) => p.length)) };
}

describe('writeJsonChunks', () => {
  it('writes the bytes of JSON.stringify(value, null, 2) for any JSON value, walked at any size', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 20 }), (v, chunkChars, smallNodes) => {
        expect(chunked(v, chunkChars, smallNodes).text).toBe(stringifyResult(v));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('leaves out what JSON.stringify leaves out, and writes null for it in arrays', () => {
    const v = { a: undefined, b: [undefined, () => 1, Symbol('s'), Number.NaN, -0, Number.POSITIVE_INFINITY], c: {}, d: [], e: { f: 'x\ny' }, g: () => 1 };
    expect(chunked(v, 3, 0).text).toBe(stringifyResult(v));
  });

  it('never holds more than one chunk beyond a single record', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ request_id: String(i), arrival_ms: i * 1.5, outcome: 'completed' }));
    const v = { completed_requests: 20_000, requests: records, instances: [{ queue_depth: Array.from({ length: 10_000 }, (_, i) => (i % 3 === 0 ? null : i)) }] };
    const { text, longest } = chunked(v, 1 << 16, 4096);
    expect(text).toBe(stringifyResult(v));
    expect(longest).toBeLessThan((1 << 16) + 200);
  });

  it('writes a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'blis-json-'));
    try {
      const v = { requests: Array.from({ length: 5000 }, (_, i) => ({ id: i, é: 'ü' })) };
      writeJsonFile(join(dir, 'r.json'), v);
      expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe(stringifyResult(v));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
