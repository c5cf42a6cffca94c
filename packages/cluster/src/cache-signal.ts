import { DEFAULT_SCORER_CONFIGS } from '@blis/policies';

/** Built-in routing policies that never read an instance's prefix cache. */
const CACHE_BLIND_ROUTING = new Set(['round-robin', 'least-loaded', 'always-busiest', 'least-kv', 'cost-escalation', 'session-affinity']);
/** Scorers of `weighted` that read the instances' prefix caches (BLIS: the cache-signal readers). */
const CACHE_SCORERS = new Set(['precise-prefix-cache', 'no-hit-lru']);

/**
 * Whether a routing set-up may read the instances' prefix caches, and so needs the delayed cache
 * signal kept up to date. Unknown policies (custom modules, runtime objects) are assumed to read
 * it; the built-ins that do not are spared recording the caches' changes.
 */
export function routingReadsPrefixCache(policy: string, scorers: readonly { name: string }[] | undefined, customRouting: boolean): boolean {
  if (customRouting) return true;
  if (policy === 'weighted') return (Array.isArray(scorers) && scorers.length > 0 ? scorers : DEFAULT_SCORER_CONFIGS).some((s) => CACHE_SCORERS.has(s.name));
  return !CACHE_BLIND_ROUTING.has(policy);
}
