/**
 * Synthetic prompt text. A real server tokenizes what it is sent, so a prompt of N tokens is
 * written as about N / (tokens per word) words; the ratio is measured once against the server
 * (see {@link CALIBRATION_PROMPT}). Text is a pure function of the seed and the request (or
 * prefix group), so two runs with one seed send the same prompts.
 */

/** 100 short, common words; most tokenizers give each one or two tokens. */
const VOCABULARY: readonly string[] = (
  'river stone cloud amber field lantern copper meadow harbor willow ' +
  'summit canvas ember falcon garden island jungle kettle ladder marble ' +
  'nectar orbit pepper quartz ribbon saddle timber umbrella velvet walnut ' +
  'yonder zephyr anchor bramble candle desert engine feather glacier hammer ' +
  'indigo jacket kernel lemon mirror needle oyster pillow quiver rocket ' +
  'shadow tunnel valley wagon yellow zebra arrow basket cactus dragon ' +
  'eagle forest goblet helmet igloo jigsaw koala lizard magnet nickel ' +
  'olive parrot rabbit saffron tiger violin window basil cobalt dune ' +
  'fabric granite hollow ivory juniper kiwi lotus maple nutmeg orchid ' +
  'pebble quill raven silver thistle tulip vapor wheat yarrow zinc'
).split(' ');

/** The words of the calibration request: the whole vocabulary, once. */
export const CALIBRATION_PROMPT = VOCABULARY.join(' ');
export const CALIBRATION_WORDS = VOCABULARY.length;

/**
 * Tokens per word from the server's `prompt_tokens` for {@link CALIBRATION_PROMPT}; 1.0 (BLIS's
 * fallback) when the count is missing or the ratio lies outside [1, 3], where it says more about
 * a chat template than about the tokenizer.
 */
export function tokensPerWord(serverPromptTokens: number): number {
  if (!(serverPromptTokens > 0)) return 1;
  const ratio = serverPromptTokens / CALIBRATION_WORDS;
  return ratio >= 1 && ratio <= 3 ? ratio : 1;
}

/** Words standing for `tokens` tokens, at least one. */
export function wordsFor(tokens: number, ratio: number): number {
  return Math.max(1, Math.round(tokens / (ratio > 0 ? ratio : 1)));
}

/** FNV-1a of a string, the seed of one word stream. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `count` words drawn from a stream keyed by `key` (mulberry32: small, fast, and enough for filler text). */
function words(key: string, count: number): string {
  let s = fnv1a(key);
  let out = '';
  for (let i = 0; i < count; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += `${VOCABULARY[((t ^ (t >>> 14)) >>> 0) % VOCABULARY.length]} `;
  }
  return out;
}

/** Builds prompts for one run; prefix strings are made once per group and reused. */
export class PromptText {
  private readonly prefixes = new Map<string, string>();

  constructor(
    private readonly seed: number,
    private readonly ratio: number,
  ) {}

  /**
   * The prompt of a request of `inputTokens` tokens. In a prefix group the text starts with the
   * group's shared string (so a server's prefix cache can hit it) and the rest stands for the
   * tokens behind the prefix, at least one.
   */
  prompt(requestKey: string, inputTokens: number, prefixGroup: string, prefixLength: number): string {
    if (prefixGroup === '' || prefixLength <= 0) return words(`${this.seed}/request/${requestKey}`, wordsFor(inputTokens, this.ratio));
    const suffix = Math.max(1, inputTokens - prefixLength);
    return this.prefix(prefixGroup, prefixLength) + words(`${this.seed}/request/${requestKey}`, wordsFor(suffix, this.ratio));
  }

  /** The shared text of a prefix group: a function of the seed, the group and its length only. */
  prefix(group: string, length: number): string {
    const key = `${group}\u0000${length}`;
    let p = this.prefixes.get(key);
    if (p === undefined) {
      p = words(`${this.seed}/prefix/${group}`, wordsFor(length, this.ratio));
      this.prefixes.set(key, p);
    }
    return p;
  }
}
