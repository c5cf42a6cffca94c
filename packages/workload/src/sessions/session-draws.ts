import { reasonRatioSampler } from './reason-ratio.js';
import { drawTokenIds } from '../blis-draws.js';
import type { LengthSampler } from '../distributions.js';
import type { GoRand } from '../go-rand/go-rand.js';
import type { ClientSpec } from '../spec-schema.js';

/** Prompt and answer length samplers: a client's own, or a window's overrides. */
export interface Lengths {
  input: LengthSampler;
  output: LengthSampler;
}

/** One round of a session as BLIS places it when the session starts. */
export interface PlacedRound {
  time: number;
  /** The round's own new tokens (the user turn), without prefix or context. */
  input: number;
  output: number;
}

/** A session as drawn at its start: BLIS's id and every round, placed open loop. */
export interface DrawnSession {
  /** `sess_<Int63>`, BLIS's session id. */
  id: string;
  rounds: PlacedRound[];
}

/**
 * The draws BLIS makes on a client's stream when a multi-turn session starts
 * (GenerateReasoningRequests): the session id's Int63, round 0's lengths, then for every round
 * its lengths (round 0's already drawn), its tokens and its reason ratio. BLIS places round r+1
 * at round r's time plus the think time plus round r's answer length in µs (its heuristic for
 * "answered"); those times decide which rounds fall inside `num_requests` even when the
 * session is then run closed loop.
 */
export function drawSession(rng: GoRand, lengths: Lengths, cs: ClientSpec, start: number): DrawnSession {
  const mt = cs.reasoning!.multi_turn!;
  const id = `sess_${rng.int63()}`;
  const reasonSampler = reasonRatioSampler(cs.reasoning?.reason_ratio_distribution);
  const input0 = lengths.input(rng);
  const output0 = lengths.output(rng);
  const rounds: PlacedRound[] = [];
  let time = start;
  for (let r = 0; r < mt.max_rounds; r++) {
    const [input, output] = r === 0 ? [input0, output0] : [lengths.input(rng), lengths.output(rng)];
    drawTokenIds(rng, input + output);
    reasonSampler?.(rng);
    rounds.push({ time, input, output });
    time += mt.think_time_us + output;
  }
  return { id, rounds };
}

/**
 * Whether a client's sessions run closed loop (BLIS's isClosedLoop): `closed_loop` when given,
 * otherwise every multi-turn client does.
 */
export function isClosedLoop(cs: ClientSpec): boolean {
  return cs.closed_loop ?? cs.reasoning?.multi_turn !== undefined;
}
