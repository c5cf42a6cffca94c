import { describe, expect, it } from 'vitest';
import { routingReadsPrefixCache } from '../src/cache-signal.js';

// Which routing set-ups keep a delayed prefix-cache view (and so a change journal per cache).
describe('routingReadsPrefixCache', () => {
  it('weighted reads caches when a cache scorer is in its profile, the default profile included', () => {
    expect(routingReadsPrefixCache('weighted', undefined, false)).toBe(true);
    expect(routingReadsPrefixCache('weighted', [{ name: 'no-hit-lru' }, { name: 'queue-depth' }], false)).toBe(true);
    expect(routingReadsPrefixCache('weighted', [{ name: 'prefix-affinity' }, { name: 'queue-depth' }], false)).toBe(false);
  });

  it('cache-blind built-ins do not; prefix-aware, prefix-overlap, unknown names and runtime policies do', () => {
    for (const p of ['round-robin', 'least-loaded', 'always-busiest', 'least-kv', 'cost-escalation', 'session-affinity']) expect(routingReadsPrefixCache(p, undefined, false)).toBe(false);
    for (const p of ['prefix-aware', 'prefix-overlap', './my-router.mjs']) expect(routingReadsPrefixCache(p, undefined, false)).toBe(true);
    expect(routingReadsPrefixCache('round-robin', undefined, true)).toBe(true);
  });
});
