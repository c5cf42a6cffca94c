import { chainHash, hashString } from '@blis/kvcache';

/**
 * The reference server's tokenizer: one token per whitespace-separated word. Crude, but it is
 * the same count the server reports as `usage.prompt_tokens`, and so the count a replay of the
 * recorded trace simulates (`server_input_tokens`).
 */
export function promptWords(text: string): string[] {
  const words = text.split(/\s+/);
  return words.filter((w) => w !== '');
}

/**
 * Hashes of the prompt's full blocks, chained over their words as vLLM chains token ids: two
 * prompts share exactly the leading blocks whose words are equal, whatever produced them.
 */
export function wordBlockHashes(words: readonly string[], blockSize: number): Float64Array {
  const n = Math.floor(words.length / blockSize);
  const out = new Float64Array(n);
  let h = 0;
  for (let i = 0; i < n; i++) {
    h = chainHash(h, hashString(words.slice(i * blockSize, (i + 1) * blockSize).join(' ')));
    out[i] = h;
  }
  return out;
}
