import { ArrayRequestSource, makeRequestSpec } from '@blis/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe } from '../src/recorder/observe.js';
import type { ObservedRecord } from '../src/recorder/observed-record.js';
import { type LiveEntry, type SimServer, startSimServer } from '../src/serve-sim/index.js';

// `blis observe` against the reference server, in process: what the recorder writes for ITL has
// to time the tokens the simulation emitted, not the usage chunk that follows the last of them.
const MODEL = 'meta-llama/llama-3.1-8b-instruct';
let server: SimServer;
const ended = new Map<string, { dueUs: number[]; endUs: number }>();
let records: ObservedRecord[] = [];

beforeAll(async () => {
  server = await startSimServer({ config: { model: MODEL, seed: 1 }, onResponseEnd: (e: LiveEntry) => ended.set(e.id, { dueUs: [...e.dueUs], endUs: e.endUs }) });
  // Two-token answers, 40 ms apart: each has one inter-token gap, then the usage chunk at the
  // simulated completion (with the CLI's trained-physics defaults, some 0.8 ms after the last token).
  const specs = Array.from({ length: 8 }, (_, i) => makeRequestSpec({ index: i, arrivalUs: i * 40_000, inputTokens: 24, outputTokens: 2, streaming: true }));
  records = (await observe({ serverUrl: server.url, model: MODEL, source: new ArrayRequestSource(specs), seed: 1, forceStreaming: true })).records;
}, 60_000);
afterAll(() => server.close());

describe('observe -> serve-sim, ITL', () => {
  it('records one ITL time per token chunk; num_chunks still counts the usage chunk (BLIS)', () => {
    expect(records).toHaveLength(8);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.outputTokens).toBe(2);
      expect(r.numChunks).toBe(3);
      expect(r.tokenChunkTimesUs).toHaveLength(2);
      expect(r.lastChunkTimeUs).toBeGreaterThanOrEqual(r.tokenChunkTimesUs[1]);
    }
  });
  it("a request's real ITL tracks the gap between the two tokens the simulation emitted", () => {
    let real = 0;
    let simulated = 0;
    for (const r of records) {
      const e = ended.get(r.xRequestId)!;
      expect(e.endUs).toBeGreaterThanOrEqual(e.dueUs[1]);
      // The mean gap of what the ITL file holds for the request, as BLIS averages it.
      const t = r.tokenChunkTimesUs;
      real += (t[t.length - 1] - t[0]) / (t.length - 1);
      simulated += e.dueUs[1] - e.dueUs[0];
    }
    // Timer and loopback jitter averages out over the requests; counting the usage chunk's gap
    // too (BLIS's rule) would give about (ITL + completion overhead) / 2, near half of this.
    expect(real / simulated).toBeGreaterThan(0.8);
    expect(real / simulated).toBeLessThan(1.25);
  });
});
