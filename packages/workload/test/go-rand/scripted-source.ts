import { GoRandSource } from '../../src/go-rand/go-source.js';

/**
 * A source that replays chosen 64-bit words (as [hi, lo] halves), to reach branches real streams
 * hit once in 2^50 draws: Float64's redraw at 1.0, Lemire's boundary products.
 */
export class ScriptedSource extends GoRandSource {
  private readonly words: [number, number][];

  constructor(words: [number, number][]) {
    super(1);
    this.words = [...words];
  }

  override next(): number {
    const word = this.words.shift();
    if (!word) throw new Error('ScriptedSource ran out of words');
    this.lastLo = word[1];
    return word[0];
  }

  /** The word whose Uint32 (bits 31-62) is `v`. */
  static uint32Word(v: number): [number, number] {
    return [v >>> 1, ((v & 1) << 31) >>> 0];
  }
}
