import { drawTokenIds } from '../blis-draws.js';
import { GoRand } from '../go-rand/go-rand.js';
import type { ClientSpec } from '../spec-schema.js';
import type { OpenSession } from './follow-ups.js';
import type { Lengths } from './session-draws.js';

/** BLIS seeds its concurrency users from a generator of its own, seeded `seed + 10007`. */
const CONCURRENCY_SEED_OFFSET = 10007n;

/** A virtual user's first request, drawn: when it is sent, its own tokens, and the session it opens. */
export interface UserSeed {
  client: number;
  time: number;
  /** New tokens of the prompt (the group's prefix goes in front). */
  input: number;
  output: number;
  session: OpenSession;
}

/** A concurrency client as the users need it. */
export interface UserClient {
  index: number;
  spec: ClientSpec;
  lengths: Lengths;
  /** The group's shared prefix in front of every prompt (0 outside a group). */
  prefixLength: number;
}

/**
 * The virtual users of the `concurrency` clients, BLIS's generateConcurrencySeedsAndBlueprints:
 * client by client (spec order), user by user, while the seeds and the `alreadyKept` requests
 * before them stay under `limit`, one `Int63` seeds the user's generator, which draws the first
 * request's lengths and tokens, then one `Int63` seeds the user's session generator, which draws
 * every later request's. User u of n sends its first request at `u × think_time_us / n` (integer
 * division; all at 0 without think time or with one user), and each later one `think_time_us`
 * after the previous completes, as a new turn behind the group's prefix (no accumulated context).
 * `users` counts every user the clients declare, seeded or not (BLIS's follow-up budget uses it).
 */
export function concurrencySeeds(seed: bigint, clients: readonly UserClient[], limit: number, alreadyKept: number): { seeds: UserSeed[]; users: number } {
  const rng = GoRand.fromSeed(seed + CONCURRENCY_SEED_OFFSET);
  const seeds: UserSeed[] = [];
  let users = 0;
  for (const c of clients) {
    const n = c.spec.concurrency ?? 0;
    if (n <= 0) continue;
    const think = c.spec.think_time_us ?? 0;
    for (let u = 0; u < n; u++) {
      if (alreadyKept + seeds.length >= limit) break;
      const user = GoRand.fromSeed(rng.int63());
      const input = c.lengths.input(user);
      const output = c.lengths.output(user);
      drawTokenIds(user, input + output);
      const time = think > 0 && n > 1 ? Math.trunc((u * think) / n) : 0;
      const session: OpenSession = {
        client: c.index,
        sessionId: `concurrency_${c.spec.id}_user_${u}`,
        round: 0,
        maxRounds: Number.POSITIVE_INFINITY,
        thinkTimeUs: think,
        accumulate: false,
        prefixTokens: c.prefixLength,
        lengths: c.lengths,
        rng: GoRand.fromSeed(rng.int63()),
        inputTokens: c.prefixLength + input,
        outputTokens: output,
      };
      seeds.push({ client: c.index, time, input, output, session });
    }
    users += n;
  }
  return { seeds, users };
}
