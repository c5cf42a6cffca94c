import type { RequestOutcome, RequestSpec } from '@blis/engine';
import { InferencePerfSource } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { closedLoop, planOf, section } from './ip-helpers.js';

// Multi-turn chat as BLIS's SessionManager runs it: round r+1 of a session arrives a think time
// after round r leaves, named session_<session>_round_<r+1>_<n>, until the session's rounds are
// spent or a round does not complete.

// 4 × 30 = 120 rounds over 3 sessions: 40 each; think 3 / 4 s = 750,000 µs.
const CHAT = planOf(section([{ rate: 4, duration: 30 }], { num_users_per_system_prompt: 3, enable_multi_turn_chat: true }));
const THINK = 750_000;

const source = (seed = 9, horizonUs?: number) => new InferencePerfSource(CHAT, { seed, blockSizeTokens: 16, ...(horizonUs !== undefined ? { horizonUs } : {}) });

const bySession = (reqs: readonly RequestSpec[]) => {
  const m = new Map<string, RequestSpec[]>();
  for (const r of reqs) m.set(r.sessionId, [...(m.get(r.sessionId) ?? []), r]);
  return m;
};

describe('closed-loop sessions', () => {
  it('sends the next round exactly a think time after the completion it is told of', () => {
    const src = source();
    expect(src.firstArrivals).toBe(3);
    const first = src.next()!;
    expect(first.roundIndex).toBe(0);
    expect(first.sessionId).toMatch(/^sess_\d+$/);
    // Nothing of this session is due before it leaves.
    src.next();
    src.next();
    expect(src.peekArrivalUs()).toBe(Number.POSITIVE_INFINITY);
    const leftAt = first.arrivalUs + 123_457;
    src.onRequestDone(first, leftAt, 'completed');
    expect(src.peekArrivalUs()).toBe(leftAt + THINK);
    const second = src.next()!;
    expect(second.arrivalUs).toBe(leftAt + THINK);
    expect(second.id).toBe(`session_${first.sessionId}_round_1_1`);
    expect([second.sessionId, second.roundIndex, second.clientId, second.index]).toEqual([first.sessionId, 1, first.clientId, 3]);
  });

  it('runs every session for its rounds, in order, each a completion plus a think time after the last', () => {
    const delay = 2_500;
    const reqs = closedLoop(source(), delay);
    // 3 sessions × 40 rounds.
    expect(reqs).toHaveLength(120);
    const sessions = bySession(reqs);
    expect(sessions.size).toBe(3);
    for (const rounds of sessions.values()) {
      expect(rounds.map((r) => r.roundIndex)).toEqual([...Array(40).keys()]);
      for (let k = 1; k < rounds.length; k++) expect(rounds[k].arrivalUs).toBe(rounds[k - 1].arrivalUs + delay + THINK);
    }
  });

  it.each(['dropped', 'rejected', 'timed_out'] satisfies RequestOutcome[])('ends a session whose round is %s', (outcome) => {
    const reqs0 = closedLoop(source());
    const victim = reqs0[0].sessionId;
    const reqs = closedLoop(source(), 1000, (r) => (r.sessionId === victim && r.roundIndex === 2 ? outcome : 'completed'));
    const rounds = bySession(reqs);
    // Rounds 0, 1 and 2 were sent; 2 did not complete, so nothing follows.
    expect(rounds.get(victim)!.map((r) => r.roundIndex)).toEqual([0, 1, 2]);
    for (const [id, rs] of rounds) if (id !== victim) expect(rs).toHaveLength(40);
  });

  it('sends no round past the horizon', () => {
    const h = 10_000_000;
    const reqs = closedLoop(source(9, h));
    expect(reqs.every((r) => r.arrivalUs <= h)).toBe(true);
    // About 10 s / 0.75 s ≈ 13 rounds each, far from 40: the horizon did stop them.
    expect(reqs.length).toBeLessThan(60);
    expect(reqs.length).toBeGreaterThan(15);
  });

  it('gives session rounds the default session timeout and no prefix group, as BLIS does', () => {
    for (const r of closedLoop(source())) {
      expect(r.prefixGroup).toBe('');
      expect(r.prefixLength).toBe(10);
      expect(r.deadlineUs).toBeGreaterThan(r.arrivalUs);
    }
  });

  it('numbers follow-ups in the order they are made (at completion), not the order they arrive', () => {
    // BLIS's SessionManager.OnComplete increments its id counter when it makes the follow-up.
    // Stage 0's session thinks 1 / 1 s = 1,000,000 µs, stage 1's 1 / 10 s = 100,000 µs: a stage-0
    // round completing first still has its follow-up arrive after the stage-1 one.
    const plan = planOf(section([{ rate: 1, duration: 10 }, { rate: 10, duration: 10 }], { enable_multi_turn_chat: true }));
    const src = new InferencePerfSource(plan, { seed: 3, blockSizeTokens: 16 });
    const a = src.next()!;
    const b = src.next()!;
    expect([a.clientId, b.clientId]).toEqual(['stage-0-prompt-0-user-0', 'stage-1-prompt-0-user-0']);
    const t = b.arrivalUs + 10;
    src.onRequestDone(a, t, 'completed'); // follow-up #1, due at t + 1,000,000
    src.onRequestDone(b, t + 20, 'completed'); // follow-up #2, due at t + 100,020
    const first = src.next()!;
    const second = src.next()!;
    expect([first.arrivalUs, first.id]).toEqual([t + 100_020, `session_${b.sessionId}_round_1_2`]);
    expect([second.arrivalUs, second.id]).toEqual([t + 1_000_000, `session_${a.sessionId}_round_1_1`]);
  });
});
