import { parseModelConfig } from '../src/index.js';
import { createStepBatch, modelConfigRaw } from '../src/internal.js';

/** A catalogue model's architecture. */
export const arch = (id: string) => parseModelConfig(modelConfigRaw(id), id);

/** A step: prefill chunks as [context start, new tokens, prompt length], decodes as contexts. */
export function step(prefill: [number, number, number][], decodes: number[]) {
  const b = createStepBatch();
  prefill.forEach(([start, n, input], i) => {
    b.prefillContextStart[i] = start;
    b.prefillNewTokens[i] = n;
    b.prefillInputTokens[i] = input;
    b.prefillTokens += n;
  });
  b.prefillCount = prefill.length;
  decodes.forEach((c, i) => {
    b.decodeContext[i] = c;
  });
  b.decodeCount = b.decodeTokens = decodes.length;
  return b;
}
