import { type WorkloadSpecInput, createRequestSource, parseWorkloadSpec } from '@blis/workload';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, specArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });
const users = (extra: object = {}): WorkloadSpecInput => ({
  version: '2',
  seed: 1,
  aggregate_rate: 0,
  num_requests: 40,
  clients: [{ id: 'u', rate_fraction: 0, concurrency: 4, think_time_us: 1000, input_distribution: constant(50), output_distribution: constant(10), prefix_group: 'p', prefix_length: 32, ...extra }],
});

describe('concurrency clients (closed-loop users)', () => {
  it('user u of n starts at u × think / n (integer µs), then sends think time after each answer', () => {
    const s = parseWorkloadSpec({ ...users(), clients: [{ ...users().clients![0], concurrency: 3 }] });
    const src = createRequestSource(s);
    const first = [src.next()!, src.next()!, src.next()!];
    // floor(0 × 1000 / 3), floor(1000 / 3), floor(2000 / 3)
    expect(first.map((r) => [r.sessionId, r.arrivalUs])).toEqual([
      ['concurrency_u_user_0', 0],
      ['concurrency_u_user_1', 333],
      ['concurrency_u_user_2', 666],
    ]);
    // Nothing more until an answer completes: a closed loop.
    expect(src.peekArrivalUs()).toBe(Number.POSITIVE_INFINITY);
    src.onRequestDone(first[1], 5000, 'completed');
    const next = src.next()!;
    expect(next).toMatchObject({ sessionId: 'concurrency_u_user_1', roundIndex: 1, arrivalUs: 6000 });
    // Every request is a new turn behind the group's prefix (no context carried).
    expect(next.inputTokens).toBe(32 + 50);
    // Unset timeout: BLIS's 300 s session deadline.
    expect(next.deadlineUs).toBe(6000 + 300_000_000);
  });

  it('a think-time distribution (observe --think-time-dist) replaces think_time_us after an answer', () => {
    const src = createRequestSource(parseWorkloadSpec(users()), { thinkTime: { type: 'constant', valueUs: 2500 } });
    // The starts are still staggered by think_time_us (0, 250, 500, 750 µs), as BLIS staggers them.
    const first = [src.next()!, src.next()!, src.next()!, src.next()!];
    expect(first.map((r) => r.arrivalUs)).toEqual([0, 250, 500, 750]);
    src.onRequestDone(first[2], 5000, 'completed');
    expect(src.next()).toMatchObject({ sessionId: 'concurrency_u_user_2', roundIndex: 1, arrivalUs: 7500 });
  });

  it('num_requests bounds seeds plus follow-ups; a failed request ends its user', () => {
    const reqs = drain(createRequestSource(parseWorkloadSpec(users())));
    expect(reqs).toHaveLength(40);
    expect(new Set(reqs.map((r) => r.sessionId)).size).toBe(4);
    const src = createRequestSource(parseWorkloadSpec(users({ concurrency: 1 })));
    const r0 = src.next()!;
    src.onRequestDone(r0, 100, 'timed_out');
    expect(src.next()).toBeUndefined();
  });

  it('no think time and one user: all users start at 0', () => {
    const s = parseWorkloadSpec(users({ think_time_us: 0 }));
    const src = createRequestSource(s);
    expect([0, 1, 2, 3].map(() => src.next()!.arrivalUs)).toEqual([0, 0, 0, 0]);
  });

  it('refuses concurrency beside a rate fraction or a multi-turn client, naming the field', () => {
    expect(() => parseWorkloadSpec(users({ rate_fraction: 1 }), 's.yaml')).toThrow(/s\.yaml clients\[0\]\.rate_fraction: expected rate_fraction 0 on a concurrency client/);
    const mixed = users();
    mixed.clients!.push({ id: 'chat', rate_fraction: 1, input_distribution: constant(5), output_distribution: constant(5), reasoning: { multi_turn: { max_rounds: 2 } } });
    expect(() => parseWorkloadSpec({ ...mixed, aggregate_rate: 5 }, 's.yaml')).toThrow(/clients\[0\]\.concurrency: expected no multi-turn client beside concurrency clients/);
    expect(() => parseWorkloadSpec({ ...users(), num_requests: undefined }, 's.yaml')).toThrow(/num_requests: expected num_requests or horizon.*client "u" has closed-loop users/);
  });

  it('any generated spec of users gives exactly num_requests requests, each user in order (fast-check)', () => {
    fc.assert(
      fc.property(specArb({ concurrency: true, maxRequests: 80 }).filter((raw) => raw.clients?.every((c) => (c.concurrency ?? 0) > 0) === true), (raw) => {
        const s = parseWorkloadSpec(raw);
        const reqs = drain(createRequestSource(s));
        expect(reqs).toHaveLength(s.num_requests!);
        const rounds = new Map<string, number[]>();
        for (const r of reqs) if (r.sessionId !== '') rounds.set(r.sessionId, [...(rounds.get(r.sessionId) ?? []), r.roundIndex]);
        for (const rs of rounds.values()) expect(rs).toEqual(rs.map((_, k) => k));
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
