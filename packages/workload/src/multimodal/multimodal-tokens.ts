import type { ModalityTokens } from '@blis/policies';
import { drawTokenIds } from '../blis-draws.js';
import { type DistributionSpec, type LengthSampler, lengthSampler } from '../distributions.js';
import { WorkloadSpecError } from '../errors.js';
import type { GoRand } from '../go-rand/go-rand.js';
import { MAX_TOKENS_PER_REQUEST } from '../request-limits.js';
import { MEDIA, type Medium, type MultimodalSpec } from './multimodal-schema.js';

/** One multimodal prompt as drawn: its parts, and the prompt (their sum, at least 1). */
export interface MultimodalPrompt {
  modalities: ModalityTokens;
  inputTokens: number;
}

/** Draws one multimodal prompt from a client's stream. */
export type MultimodalSampler = (rng: GoRand) => MultimodalPrompt;

/** Where a refused prompt came from, for the message. */
export interface MultimodalOrigin {
  file: string;
  /** `clients[3].multimodal` */
  field: string;
}

/**
 * The prompt sampler of a client's `multimodal` section, drawing as BLIS's
 * GenerateMultimodalTokens does (sim/workload/multimodal.go): the text length; then per medium
 * (image, audio, video) with both distributions, the item count and each item's tokens in turn;
 * then one token id per prompt token (at least 1). The caller draws the answer after it.
 */
export function multimodalSampler(spec: MultimodalSpec, baseDir: string | undefined, origin: MultimodalOrigin): MultimodalSampler {
  const text = spec.text_distribution !== undefined ? lengthSampler(spec.text_distribution as DistributionSpec, baseDir) : undefined;
  const media: [Medium, LengthSampler, LengthSampler][] = [];
  for (const m of MEDIA) {
    const tokens = spec[`${m}_distribution`];
    const count = spec[`${m}_count_distribution`];
    if (tokens !== undefined && count !== undefined) media.push([m, lengthSampler(count as DistributionSpec, baseDir), lengthSampler(tokens as DistributionSpec, baseDir)]);
  }
  return (rng) => {
    const parts = { text: text === undefined ? 0 : text(rng), image: 0, audio: 0, video: 0 };
    let total = parts.text;
    for (const [m, count, tokens] of media) {
      const n = count(rng);
      for (let k = 0; k < n; k++) {
        const t = tokens(rng);
        parts[m] += t;
        total += t;
        // Refused as soon as it is too long: a count of millions would otherwise draw on.
        if (total > MAX_TOKENS_PER_REQUEST)
          throw new WorkloadSpecError([{ file: origin.file, field: `${origin.field}.${m}_distribution`, expected: `prompts of at most ${MAX_TOKENS_PER_REQUEST} tokens (text plus every item)`, found: `more than ${MAX_TOKENS_PER_REQUEST} tokens in one prompt` }]);
      }
    }
    const inputTokens = Math.max(total, 1);
    drawTokenIds(rng, inputTokens);
    return { modalities: parts, inputTokens };
  };
}
