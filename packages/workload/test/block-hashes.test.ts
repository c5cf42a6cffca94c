import { describe, expect, it } from 'vitest';
import { mooncakeBlockHashes, promptBlockHashes } from '../src/block-hashes.js';

// Block hashes decide cache hits across runs and tools: these are the values the block-by-block
// chainHash loop gave before chainStreamHashes replaced it, and must not change.
describe('prompt block hashes keep their values', () => {
  const prompt = { id: '7', inputTokens: 50, prefixGroup: '', prefixLength: 0, sessionId: '' };

  it('a lone request (the Azure and spec case)', () => {
    expect(Array.from(promptBlockHashes(prompt, 16))).toEqual([408857422875265, 3309473028239446, 181797563657566]);
  });

  it('a prefix group, then the request', () => {
    const p = { ...prompt, id: 'r1', inputTokens: 70, prefixGroup: 'g', prefixLength: 40 };
    expect(Array.from(promptBlockHashes(p, 16))).toEqual([4270945262702340, 3950367217322656, 1432765620003343, 559144510846503]);
  });

  it('a session round, past its prompt', () => {
    const p = { ...prompt, id: 'r2', inputTokens: 40, prefixGroup: 'g', prefixLength: 20, sessionId: 's' };
    expect(Array.from(promptBlockHashes(p, 16, 20))).toEqual([4270945262702340, 4119226111089325, 3999949565268883]);
  });

  it('Mooncake ids, then the request past them', () => {
    expect(Array.from(mooncakeBlockHashes([3, 9], 1300, 300, 'm1'))).toEqual([1710352244760125, 967522762577752, 2030738095748648, 1714712964144615]);
  });
});
