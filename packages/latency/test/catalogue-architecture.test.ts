import { describe, expect, it } from 'vitest';
import { parseModelConfig, resolveLatency } from '../src/index.js';
import { modelConfigRaw } from '../src/internal.js';

const MODEL = 'meta-llama/llama-3.1-8b-instruct';

describe("the catalogue's architectures, parsed once", () => {
  it('resolves a catalogue model to one shared, frozen architecture equal to a fresh parse', () => {
    const a = resolveLatency({ model: MODEL, hardware: 'H100', latencyModel: 'roofline' }).modelConfig!;
    const b = resolveLatency({ model: MODEL, hardware: 'H100', latencyModel: 'trained-physics' }).modelConfig!;
    expect(b).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.step)).toBe(true);
    expect(a).toEqual(parseModelConfig(modelConfigRaw(MODEL), 'x'));
    // Test modules are strict: writing a frozen field throws.
    expect(() => {
      (a as { layers: number }).layers = 1;
    }).toThrow(TypeError);
  });
});
