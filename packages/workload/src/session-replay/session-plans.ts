import type { RequestSpec } from '@blis/engine';
import { requestBlockHashes } from '../block-hashes.js';
import { drawTokenIds } from '../blis-draws.js';
import { TraceReadError } from '../errors.js';
import { GoRand } from '../go-rand/go-rand.js';
import { quoteExcerpt, valueExcerpt } from '../text-excerpt.js';
import type { TraceV2Header, TraceV2Row } from '../traces/tracev2.js';

/** A session's recorded rounds, as closed-loop replay re-sends them. */
export interface SessionPlan {
  sessionId: string;
  /** Round 0's request: its row, hashed for the session's context growth. */
  first: RequestSpec;
  /** Per round k ≥ 1: the new tokens of its prompt (without the group prefix) and its answer. */
  inputs: number[];
  outputs: number[];
  /**
   * Per round k ≥ 1: the recorded pause before it, µs: `think_time_us` when the session records
   * any, else the gap between the rounds' `arrival_time_us` (clamped at 0). Unused with a think-time
   * distribution.
   */
  thinks: number[];
  /** `session_context_growth: accumulate`: a round's prompt is the previous prompt, its answer and the new turn. */
  accumulate: boolean;
  /** The session's own Go generator (BLIS's per-session RNG), after round 0's token draws. */
  rng: GoRand;
}

/** The requests sent at their recorded times (round 0 of every session, every row outside one) and the sessions. */
export interface SessionReplayPlan {
  injected: RequestSpec[];
  sessions: SessionPlan[];
}

/** Where a row came from, for an error about it. */
export interface LocatedRow extends TraceV2Row {
  line: number;
}

/**
 * Groups TraceV2 rows into sessions as BLIS's LoadTraceV2SessionBlueprints does, draw for draw on
 * Go's math/rand seeded with `seed`: the prefix groups' tokens first (in order of the first row
 * giving a group a length), then one seed per session in order of first appearance, each session's
 * generator then drawing round 0's prompt and answer tokens. A session's rounds must be numbered
 * 0, 1, 2, ... (in any row order). Rows outside sessions are injected as recorded.
 */
export function planSessionReplay(rows: readonly LocatedRow[], header: TraceV2Header, files: { header: string; csv: string }, seed: number, blockSize: number): SessionReplayPlan {
  const accumulate = contextGrowth(header.session_context_growth, files.header);
  const rng = GoRand.fromSeed(BigInt(seed));
  const groups = new Set<string>();
  for (const r of rows) {
    const g = r.spec.prefixGroup;
    if (g !== '' && r.prefixLengthColumn > 0 && !groups.has(g)) {
      groups.add(g);
      drawTokenIds(rng, r.spec.prefixLength);
    }
  }
  const bySession = new Map<string, LocatedRow[]>();
  const loose: RequestSpec[] = [];
  for (const r of rows) {
    if (r.spec.sessionId === '') {
      loose.push(r.spec);
      continue;
    }
    const list = bySession.get(r.spec.sessionId);
    if (list === undefined) bySession.set(r.spec.sessionId, [r]);
    else list.push(r);
  }
  const sessions: SessionPlan[] = [];
  for (const [sessionId, list] of bySession) {
    const rounds = [...list].sort((a, b) => a.spec.roundIndex - b.spec.roundIndex);
    rounds.forEach((r, i) => {
      if (r.spec.roundIndex !== i)
        throw new TraceReadError({
          file: files.csv,
          line: r.line,
          field: 'round_index',
          expected: `session ${quoteExcerpt(sessionId)}'s rounds numbered 0, 1, 2, ... without gaps or repeats (round ${i} here)`,
          found: String(r.spec.roundIndex),
        });
    });
    const own = (r: LocatedRow) => r.spec.inputTokens - r.spec.prefixLength;
    const recorded = rounds.slice(1).some((r) => r.thinkTimeUs !== 0);
    const thinks = rounds.slice(1).map((r, i) => (recorded ? r.thinkTimeUs : Math.max(0, r.arrivalTimeUs - rounds[i].arrivalTimeUs)));
    const sessionRng = GoRand.fromSeed(rng.int63());
    const first = rounds[0].spec;
    drawTokenIds(sessionRng, own(rounds[0]) + first.outputTokens);
    // Without accumulated context a round is new content behind the group prefix: hashed as a one-off request.
    const hashes = requestBlockHashes({ id: first.id, inputTokens: first.inputTokens, prefixGroup: first.prefixGroup, prefixLength: first.prefixLength, sessionId: accumulate ? sessionId : '' }, first.outputTokens, blockSize);
    sessions.push({
      sessionId,
      first: { ...first, blockHashes: hashes.blockHashes, kvBlockHashes: hashes.kvBlockHashes },
      inputs: rounds.slice(1).map(own),
      outputs: rounds.slice(1).map((r) => r.spec.outputTokens),
      thinks,
      accumulate,
      rng: sessionRng,
    });
  }
  return { injected: [...sessions.map((s) => s.first), ...loose], sessions };
}

/** The header's `session_context_growth`: `accumulate`, or nothing (BLIS refuses any other value). */
function contextGrowth(value: unknown, file: string): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (value === 'accumulate') return true;
  throw new TraceReadError({ file, field: 'session_context_growth', expected: '"accumulate" or nothing (each round is the group prefix and its own tokens)', found: valueExcerpt(value) });
}
