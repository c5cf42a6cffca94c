import type { FlagDef } from './flags.js';

/** `blis compose`'s flags: BLIS's `--from`, repeatable, and our `--quiet`. */
export const COMPOSE_FLAGS: readonly FlagDef[] = [
  { name: 'from', kind: 'strings', group: 'Compose', description: 'a WorkloadSpec v2 YAML file to merge (v1 upgraded as BLIS upgrades it); repeat for each, in order (at least one)' },
  { name: 'quiet', kind: 'bool', group: 'Compose', description: 'no notes on stderr' },
];
