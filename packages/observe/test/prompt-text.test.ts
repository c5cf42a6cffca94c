import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALIBRATION_PROMPT, PromptText, tokensPerWord, wordsFor } from '../src/recorder/prompt-text.js';

const count = (s: string) => s.trim().split(/\s+/).length;

describe('prompt text', () => {
  it('calibrates from 100 words, falling back to 1 outside [1, 3]', () => {
    expect(count(CALIBRATION_PROMPT)).toBe(100);
    expect(tokensPerWord(130)).toBe(1.3);
    expect(tokensPerWord(0)).toBe(1);
    expect(tokensPerWord(99)).toBe(1);
    expect(tokensPerWord(301)).toBe(1);
  });
  it('writes round(tokens / ratio) words, at least one', () => {
    expect(wordsFor(10, 2)).toBe(5);
    expect(wordsFor(0, 1)).toBe(1);
    expect(count(new PromptText(1, 2).prompt('0', 11, '', 0))).toBe(6);
  });
  it('is a function of the seed and the request', () => {
    fc.assert(
      fc.property(fc.integer(), fc.string(), fc.integer({ min: 1, max: 300 }), (seed, key, n) => {
        const a = new PromptText(seed, 1).prompt(key, n, '', 0);
        expect(new PromptText(seed, 1).prompt(key, n, '', 0)).toBe(a);
        expect(count(a)).toBe(n);
      }),
    );
    expect(new PromptText(1, 1).prompt('a', 50, '', 0)).not.toBe(new PromptText(2, 1).prompt('a', 50, '', 0));
  });
  it('starts every prompt of a group with the same prefix, then the tokens behind it', () => {
    const p = new PromptText(42, 1);
    const a = p.prompt('1', 30, 'g', 20);
    const b = p.prompt('2', 25, 'g', 20);
    const prefix = p.prefix('g', 20);
    expect(count(prefix)).toBe(20);
    expect(a.startsWith(prefix) && b.startsWith(prefix)).toBe(true);
    expect(count(a)).toBe(30);
    expect(count(b)).toBe(25);
    expect(new PromptText(42, 1).prefix('h', 20)).not.toBe(prefix);
  });
});
