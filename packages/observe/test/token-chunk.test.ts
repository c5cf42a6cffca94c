import { describe, expect, it } from 'vitest';
import { TokenChunkDetector } from '../src/recorder/token-chunk.js';

const carries = (...chunks: Record<string, unknown>[]): boolean[] => {
  const d = new TokenChunkDetector();
  return chunks.map((c) => d.carriesTokens(c));
};

describe('TokenChunkDetector', () => {
  it('completions: a non-empty text is a token, an empty one or the usage-only chunk is not', () => {
    expect(
      carries(
        { choices: [{ index: 0, text: ' t0', finish_reason: null }] },
        { choices: [{ index: 0, text: '', finish_reason: 'length' }] },
        { choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } },
      ),
    ).toEqual([true, false, false]);
  });
  it('chat: the role-only opening delta and a bare finish delta carry none; content, reasoning and tool calls do', () => {
    expect(
      carries(
        { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] },
        { choices: [{ index: 0, delta: { reasoning_content: 'hmm' } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{' } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ),
    ).toEqual([false, true, true, true, false]);
  });
  it('a running completion_tokens count that grows marks a token chunk (continuous usage stats); a first count alone does not', () => {
    expect(
      carries(
        { choices: [{ index: 0, text: '' }], usage: { completion_tokens: 0 } },
        { choices: [{ index: 0, text: '' }], usage: { completion_tokens: 1 } },
        { choices: [{ index: 0, text: '' }], usage: { completion_tokens: 1 } },
        { choices: [], usage: { completion_tokens: 2 } },
      ),
    ).toEqual([false, true, false, false]);
    expect(carries({ choices: [{ index: 0, text: '', finish_reason: 'length' }], usage: { completion_tokens: 40 } })).toEqual([false]);
  });
  it('chunks without choices or with malformed ones carry none', () => {
    expect(carries({}, { choices: 'x' }, { choices: [null, 3] }, { choices: [{ delta: null }] })).toEqual([false, false, false, false]);
  });
});
