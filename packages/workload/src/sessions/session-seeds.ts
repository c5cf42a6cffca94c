import { GoRand } from '../go-rand/go-rand.js';

/** BLIS seeds its session blueprints from a generator of its own, seeded `seed + 7919`. */
const BLUEPRINT_SEED_OFFSET = 7919n;

/**
 * The seed of every closed-loop session's own generator, BLIS's GenerateWorkload: one `Int63`
 * from the blueprint generator per session, client by client (spec order), and within a client
 * in the byte order of the session ids (Go's sort.Strings, so "sess_10" before "sess_9").
 * `sessionsByClient` holds, per closed-loop client, the ids of its sessions whose round 0 is
 * among the requests kept.
 */
export function blueprintSeeds(seed: bigint, sessionsByClient: readonly (readonly string[])[]): Map<string, bigint> {
  const rng = GoRand.fromSeed(seed + BLUEPRINT_SEED_OFFSET);
  const out = new Map<string, bigint>();
  for (const ids of sessionsByClient) {
    for (const id of [...ids].sort(byteOrder)) out.set(id, rng.int63());
  }
  return out;
}

/** Go's string order: byte by byte (these ids are ASCII, so UTF-16 code units compare alike). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
