import { describe, expect, it } from 'vitest';
import { calibrate, readCalibrationInputs } from '../src/calibrate/calibrate.js';
import { type ItlRow, tokenChunkRows } from '../src/calibrate/itl-data.js';
import { pairRequests } from '../src/calibrate/pairing.js';
import { EPOCH, blisResultsJson, csvOf, headerYaml, rec, sim, writeFiles } from './calibrate-fixtures.js';

const opts = { warmUpRequests: 0, networkRttUs: 0, bandwidthMbps: 0 };
const rows = (id: number, times: number[]): ItlRow[] => times.map((t, i) => ({ requestId: id, chunkIndex: i, timestampUs: t }));
const itlCsv = (r: ItlRow[]) => `request_id,chunk_index,timestamp_us\n${r.map((x) => `${x.requestId},${x.chunkIndex},${x.timestampUs}`).join('\n')}\n`;

describe('tokenChunkRows', () => {
  it('keeps our files (token chunks only, never more rows than tokens) as they are', () => {
    expect(tokenChunkRows(rows(0, [0, 7000, 14000]), 3).map((r) => r.timestampUs)).toEqual([0, 7000, 14000]);
    // A server that sends two tokens a chunk: fewer rows than tokens.
    expect(tokenChunkRows(rows(0, [0, 14000]), 4).map((r) => r.timestampUs)).toEqual([0, 14000]);
  });
  it("BLIS completions: drops the trailing usage chunk; BLIS chat: also the role-only opening chunk", () => {
    expect(tokenChunkRows(rows(0, [0, 7000, 7800]), 2).map((r) => r.timestampUs)).toEqual([0, 7000]);
    expect(tokenChunkRows(rows(0, [0, 5, 7005, 7800]), 2).map((r) => r.timestampUs)).toEqual([5, 7005]);
  });
  it('beyond those, keeps the first output_tokens rows; with no token count, every row', () => {
    expect(tokenChunkRows(rows(0, [0, 5, 7005, 7010, 7800]), 2).map((r) => r.timestampUs)).toEqual([5, 7005]);
    expect(tokenChunkRows(rows(0, [0, 7000, 7800]), 0).map((r) => r.timestampUs)).toEqual([0, 7000, 7800]);
  });
});

describe('real ITL from an ITL CSV', () => {
  // Three requests of 2, 3 and 5 tokens, 7 ms apart, the completion (and usage chunk) 0.8 ms after the last token.
  const tokens = [2, 3, 5];
  const tokenTimes = (n: number) => Array.from({ length: n }, (_, k) => EPOCH + 30_000 + k * 7000);
  const records = tokens.map((n, id) => rec(id, 30_000, 30_000 + (n - 1) * 7000 + 800, { outputTokens: n, numChunks: n + 1 }));
  const sims = tokens.map((n, id) => sim(id, 30_000, 30_000 + (n - 1) * 7000 + 800, { outputTokens: n, itlMeanUs: 7000 }));
  const ours = tokens.flatMap((n, id) => rows(id, tokenTimes(n).map((t) => t + id * 1000)));
  const blisCompletions = tokens.flatMap((n, id) => rows(id, [...tokenTimes(n), tokenTimes(n)[n - 1] + 800].map((t) => t + id * 1000)));
  const blisChat = tokens.flatMap((n, id) => rows(id, [tokenTimes(n)[0] - 20, ...tokenTimes(n), tokenTimes(n)[n - 1] + 800].map((t) => t + id * 1000)));

  it('is 7 ms for every request, whether the file is ours or BLIS\'s (completions or chat)', () => {
    for (const itl of [ours, blisCompletions, blisChat]) {
      const f = writeFiles({ 'h.yaml': headerYaml(), 'd.csv': csvOf(records), 's.json': blisResultsJson(sims), 'itl.csv': itlCsv(itl) });
      const out = calibrate(readCalibrationInputs({ traceHeader: f['h.yaml'], traceData: f['d.csv'], simResults: f['s.json'], itlData: f['itl.csv'] }));
      expect(out.pairs.itl.real).toEqual([7000, 7000, 7000]);
      expect(out.report.metrics.itl?.request_level.mape).toBe(0);
    }
  });
  it("BLIS's rule (every chunk's gap) would have put the usage chunk's 0.8 ms gap into the mean", () => {
    const p = pairRequests(records, sims, opts, blisCompletions);
    expect(p.itl.real[0]).toBe(7000);
    const twoTokens = blisCompletions.filter((r) => r.requestId === 0).map((r) => r.timestampUs);
    expect((twoTokens[2] - twoTokens[0]) / 2).toBe(3900);
  });
  it("simulated ITL is the result's own mean ITL when it has one, else (E2E − TTFT)/(output − 1)", () => {
    expect(pairRequests(records, sims, opts, ours).itl.sim).toEqual([7000, 7000, 7000]);
    const bare = sims.map((s) => ({ ...s, itlMeanUs: 0 }));
    expect(pairRequests(records, bare, opts, ours).itl.sim).toEqual([7800, 7400, 7200]);
  });
});
