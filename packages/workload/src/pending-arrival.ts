import type { UserSeed } from './sessions/concurrency-users.js';
import type { FollowUp } from './sessions/follow-ups.js';

/** A session round BLIS places open loop when the session starts. */
export interface Placed {
  sessionId: string;
  round: number;
  inputTokens: number;
  outputTokens: number;
  /** A closed-loop session's later round: it takes its place in `num_requests`, then is replaced by a follow-up. */
  phantom: boolean;
}

export interface Pending {
  time: number;
  /**
   * Order among arrivals at the same µs: BLIS sorts its generated requests stably, so ties keep
   * client order (then window order, then generation order); follow-ups of closed-loop sessions
   * come after them, in the order they were made.
   */
  rank: number;
  seq: number;
  client: number;
  /** The window (index into `windows`) of an arrival from the per-window generator. */
  window?: number;
  placed?: Placed;
  followUp?: FollowUp;
  /** A concurrency user's first request. */
  user?: UserSeed;
}

/** Concurrency users' first requests come after every generated request at the same µs (BLIS appends them before its stable sort), follow-ups last. */
export const USER_RANK = Number.MAX_SAFE_INTEGER - 1;

/** The order of pending arrivals: by time, then rank, then the order they were queued in. */
export function before(a: Pending, b: Pending): boolean {
  if (a.time !== b.time) return a.time < b.time;
  return a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq;
}
