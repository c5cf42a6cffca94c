import type { RequestOutcome } from '@blis/engine';
import { drawTokenIds } from '../blis-draws.js';
import type { GoRand } from '../go-rand/go-rand.js';
import { type ThinkTimeDist, sampleThinkTimeUs } from '../think-time/think-time-dist.js';
import type { Lengths } from './session-draws.js';

/** What a closed-loop session needs to make its next round (BLIS's SessionBlueprint and its state). */
export interface OpenSession {
  client: number;
  sessionId: string;
  /** Index of the round in flight. */
  round: number;
  /** Rounds in all (Infinity: until the horizon, a failed round or the budget ends it). */
  maxRounds: number;
  thinkTimeUs: number;
  /** `accumulate`: each round's prompt is the previous prompt, its answer and a new turn. */
  accumulate: boolean;
  /** Tokens of shared prefix in front of a new turn when the context does not accumulate. */
  prefixTokens: number;
  /** Lengths of the follow-up rounds: the client's (BLIS builds its blueprints from them). */
  lengths: Lengths;
  /** The session's own generator. */
  rng: GoRand;
  /** Prompt and answer of the round in flight. */
  inputTokens: number;
  outputTokens: number;
}

/** A follow-up round, drawn: when it arrives and its prompt. */
export interface FollowUp {
  session: OpenSession;
  time: number;
  round: number;
  /** The whole prompt: context (or prefix) plus the new turn. */
  inputTokens: number;
  outputTokens: number;
}

/**
 * The closed-loop sessions in flight, keyed by the index of the request each waits on. A round
 * that leaves the system calls {@link done}; what follows is BLIS's SessionManager.OnComplete: a
 * round that did not complete ends its session, and so does its last round, a spent follow-up
 * budget, or a next arrival (completion + think time) past the horizon; otherwise the session's generator draws the next
 * turn's lengths and tokens, and the prompt grows by the answer and the turn (accumulate) or is
 * the prefix and the turn.
 */
export class ClosedLoopSessions {
  private readonly waiting = new Map<number, OpenSession>();
  /** Follow-ups left to make (BLIS's follow-up budget, set when concurrency users exist). */
  private budget = Number.POSITIVE_INFINITY;

  /**
   * `thinkTime`: every session's pauses drawn from it on the session's generator, instead of its
   * own constant (BLIS observe's `--think-time-dist`, set on every blueprint).
   */
  constructor(
    private readonly horizon: number,
    private readonly thinkTime?: ThinkTimeDist,
  ) {}

  /** Caps the follow-ups made from now on (BLIS's SetFollowUpBudget). */
  setBudget(n: number): void {
    this.budget = n;
  }

  /** Whether any session waits on a request (nothing to do otherwise). */
  get size(): number {
    return this.waiting.size;
  }

  /** The session's round in flight is request `index`. */
  wait(index: number, s: OpenSession): void {
    this.waiting.set(index, s);
  }

  done(index: number, timeUs: number, outcome: RequestOutcome): FollowUp | undefined {
    const s = this.waiting.get(index);
    if (s === undefined) return undefined;
    this.waiting.delete(index);
    if (outcome !== 'completed' || s.round + 1 >= s.maxRounds || this.budget <= 0) return undefined;
    const time = timeUs + (this.thinkTime !== undefined ? sampleThinkTimeUs(this.thinkTime, () => s.rng.normFloat64()) : s.thinkTimeUs);
    if (time > this.horizon) return undefined;
    this.budget--;
    const turn = s.lengths.input(s.rng);
    const outputTokens = s.lengths.output(s.rng);
    drawTokenIds(s.rng, turn + outputTokens);
    const inputTokens = s.accumulate ? s.inputTokens + s.outputTokens + turn : s.prefixTokens + turn;
    return { session: s, time, round: s.round + 1, inputTokens, outputTokens };
  }
}
