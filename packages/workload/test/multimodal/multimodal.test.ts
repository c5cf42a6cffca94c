import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequestSource, openTraceV2, parseWorkloadSpec, writeTraceV2 } from '@blis/workload';
import { lengthSampler, multimodalSampler } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoRand } from '../../src/go-rand/go-rand.js';
import { drain, multimodalArb, specArb } from '../../src/testing/index.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Multimodal prompts (BLIS's MultimodalSpec): the parts of each prompt, what they add up to, and
// where they go. BLIS HEAD's own runs are the request-level reference
// (packages/cli/test/blis-epd-multimodal-parity.test.ts); these pin the accounting by hand.

const dir = mkdtempSync(join(tmpdir(), 'blis-multimodal-'));
const constant = (value: number) => ({ type: 'constant' as const, params: { value } });

const spec = (clients: object[], extra: object = {}) => parseWorkloadSpec({ version: '2', seed: 11, aggregate_rate: 50, num_requests: 40, clients, ...extra });
const text = { id: 'text', rate_fraction: 1, input_distribution: constant(100), output_distribution: constant(7) };

describe('multimodal prompts', () => {
  it('a prompt is its text plus every item: 50 + 2 × 576 + 1 × 200 = 1402 tokens, behind a 30-token shared prefix', () => {
    const mm = {
      id: 'vision',
      rate_fraction: 1,
      prefix_group: 'sys',
      prefix_length: 30,
      input_distribution: constant(100),
      output_distribution: constant(7),
      multimodal: { text_distribution: constant(50), image_distribution: constant(576), image_count_distribution: constant(2), audio_distribution: constant(200), audio_count_distribution: constant(1) },
    };
    const reqs = drain(createRequestSource(spec([mm])));
    expect(reqs).toHaveLength(40);
    for (const r of reqs) {
      expect(r.modalities).toEqual({ text: 50, image: 1152, audio: 200, video: 0 });
      expect(r.inputTokens).toBe(30 + 1402);
      expect(r.prefixLength).toBe(30);
    }
    // Constant lengths draw nothing: the stream then moves by the token ids alone, so a text client
    // with 1402-token prompts (and the same prefix) draws the same arrivals, and input_distribution is unused.
    const plain = drain(createRequestSource(spec([{ ...mm, multimodal: undefined, input_distribution: constant(1402) }])));
    expect(reqs.map((r) => r.arrivalUs)).toEqual(plain.map((r) => r.arrivalUs));
    expect(plain.every((r) => r.modalities === undefined)).toBe(true);
  });

  it("draws in BLIS's order: text, then per medium the count and each item, then the prompt's token ids", () => {
    const g = (mean: number, max: number) => ({ type: 'gaussian' as const, params: { mean, std_dev: mean / 2, min: 1, max } });
    const mm = { text_distribution: g(80, 200), image_distribution: g(500, 900), image_count_distribution: g(2, 4), video_distribution: g(1000, 3000), video_count_distribution: g(1, 3) };
    const sample = multimodalSampler(mm, undefined, { file: 'spec', field: 'clients[0].multimodal' });
    const a = GoRand.fromSeed(99n);
    const b = GoRand.fromSeed(99n);
    const [textLen, image, imageCount, video, videoCount] = [mm.text_distribution, mm.image_distribution, mm.image_count_distribution, mm.video_distribution, mm.video_count_distribution].map((d) => lengthSampler(d));
    for (let k = 0; k < 50; k++) {
      const got = sample(a);
      const want = { text: textLen(b), image: 0, audio: 0, video: 0 };
      for (let n = imageCount(b); n > 0; n--) want.image += image(b);
      for (let n = videoCount(b); n > 0; n--) want.video += video(b);
      const total = want.text + want.image + want.video;
      b.skipIntn(128_000, total);
      expect(got).toEqual({ modalities: want, inputTokens: total });
    }
    expect(a.int63()).toBe(b.int63());
  });

  it('a cohort passes its multimodal section to every member', () => {
    const cohort = { id: 'cam', population: 3, rate_fraction: 1, input_distribution: constant(100), output_distribution: constant(5), multimodal: { video_distribution: constant(64), video_count_distribution: constant(3) } };
    const reqs = drain(createRequestSource(parseWorkloadSpec({ version: '2', seed: 3, aggregate_rate: 30, num_requests: 30, cohorts: [cohort] })));
    expect(new Set(reqs.map((r) => r.clientId))).toEqual(new Set(['cam-0', 'cam-1', 'cam-2']));
    for (const r of reqs) expect([r.inputTokens, r.modalities]).toEqual([192, { text: 0, image: 0, audio: 0, video: 192 }]);
  });

  it('only the multimodal client carries modality counts; the text client beside it carries none', () => {
    const mm = { id: 'mm', rate_fraction: 1, input_distribution: constant(100), output_distribution: constant(7), multimodal: { audio_distribution: constant(40), audio_count_distribution: constant(2) } };
    const reqs = drain(createRequestSource(spec([text, mm])));
    expect(reqs.filter((r) => r.clientId === 'text').every((r) => r.modalities === undefined && r.inputTokens === 100)).toBe(true);
    expect(reqs.filter((r) => r.clientId === 'mm').every((r) => r.inputTokens === 80 && r.modalities?.audio === 80)).toBe(true);
  });

  it('TraceV2 keeps the counts: a generated spec written and read back has the same parts per request (fast-check)', () => {
    let n = 0;
    fc.assert(
      fc.property(specArb({ maxRequests: 40 }), (raw) => {
        const loaded = parseWorkloadSpec(raw);
        const stem = join(dir, `t${n++}`);
        writeTraceV2(createRequestSource(loaded), `${stem}.yaml`, `${stem}.csv`);
        const written = drain(createRequestSource(loaded));
        const read = drain(openTraceV2(`${stem}.csv`));
        expect(read.map((r) => r.modalities)).toEqual(written.map((r) => r.modalities));
        // A prompt is its parts plus its shared prefix.
        for (const r of written) if (r.modalities !== undefined) expect(r.inputTokens - r.prefixLength).toBe(Math.max(1, r.modalities.text + r.modalities.image + r.modalities.audio + r.modalities.video));
      }),
      { numRuns: propertyRuns(25) },
    );
  });

  it('every generated multimodal section is a valid one', () => {
    fc.assert(fc.property(multimodalArb, (m) => void spec([{ ...text, multimodal: m }])), { numRuns: propertyRuns(200) });
  });
});
