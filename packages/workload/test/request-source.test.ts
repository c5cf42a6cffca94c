import type { RequestSpec } from '@blis/engine';
import { type WorkloadSpecInput, createRequestSource, parseWorkloadSpec } from '@blis/workload';
import { networkDelay, promptBlockHashes } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, specArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });

function spec(overrides: Partial<WorkloadSpecInput> & { clients: NonNullable<WorkloadSpecInput['clients']> }) {
  return parseWorkloadSpec({ version: '2', seed: 5, aggregate_rate: 100, num_requests: 50, ...overrides });
}

/** Number of leading block hashes two requests have in common. */
function sharedBlocks(a: RequestSpec, b: RequestSpec): number {
  const n = Math.min(a.blockHashes.length, b.blockHashes.length);
  let i = 0;
  while (i < n && a.blockHashes[i] === b.blockHashes[i]) i++;
  return i;
}

describe('prefix groups', () => {
  // prefix_length 50 at 16 tokens per block: 3 full blocks (48 tokens) are wholly prefix; the
  // 4th block mixes the last 2 prefix tokens with the request's own, so it is not shareable.
  it.each([
    [50, 16, 3],
    [64, 16, 4],
    [256, 16, 16],
    [15, 16, 0],
    [50, 32, 1],
  ])('prefix_length %i, block size %i: requests of one group share exactly %i blocks', (prefixLength, blockSize, expected) => {
    const s = spec({
      clients: [
        { id: 'g', rate_fraction: 1, prefix_group: 'system-prompt', prefix_length: prefixLength, input_distribution: { type: 'gaussian', params: { mean: 200, std_dev: 50, min: 100, max: 400 } }, output_distribution: constant(4) },
      ],
    });
    const reqs = drain(createRequestSource(s, { blockSizeTokens: blockSize }));
    expect(reqs).toHaveLength(50);
    for (const r of reqs) {
      expect(r.prefixGroup).toBe('system-prompt');
      expect(r.prefixLength).toBe(prefixLength);
      expect(r.blockHashes.length).toBe(Math.floor(r.inputTokens / blockSize));
      // The prompt is the prefix plus at least the 100-token minimum of the user part.
      expect(r.inputTokens).toBeGreaterThanOrEqual(prefixLength + 100);
    }
    for (let i = 1; i < reqs.length; i++) expect(sharedBlocks(reqs[0], reqs[i])).toBe(expected);
  });

  it('different groups, and requests without a group, share nothing', () => {
    const s = spec({
      clients: [
        { id: 'a', rate_fraction: 1, prefix_group: 'A', prefix_length: 128, input_distribution: constant(100), output_distribution: constant(4) },
        { id: 'b', rate_fraction: 1, prefix_group: 'B', prefix_length: 128, input_distribution: constant(100), output_distribution: constant(4) },
        { id: 'c', rate_fraction: 1, input_distribution: constant(228), output_distribution: constant(4) },
      ],
    });
    const reqs = drain(createRequestSource(s));
    const byClient = (id: string) => reqs.filter((r) => r.clientId === id);
    const [a0, a1] = byClient('a');
    const [b0] = byClient('b');
    const [c0, c1] = byClient('c');
    expect(sharedBlocks(a0, a1)).toBe(8);
    expect(sharedBlocks(a0, b0)).toBe(0);
    expect(sharedBlocks(a0, c0)).toBe(0);
    expect(sharedBlocks(c0, c1)).toBe(0);
    expect(c0.prefixLength).toBe(0);
  });

  it('two clients in one group share the group prefix', () => {
    const s = spec({
      clients: [
        { id: 'a', rate_fraction: 1, prefix_group: 'shared', prefix_length: 96, input_distribution: constant(40), output_distribution: constant(4) },
        { id: 'b', rate_fraction: 1, prefix_group: 'shared', prefix_length: 96, input_distribution: constant(300), output_distribution: constant(4) },
      ],
    });
    const reqs = drain(createRequestSource(s));
    const a = reqs.find((r) => r.clientId === 'a')!;
    const b = reqs.find((r) => r.clientId === 'b')!;
    expect(sharedBlocks(a, b)).toBe(6);
  });
});

describe('multi-turn sessions (driven by hand, without a simulator)', () => {
  const chat = (growth: 'accumulate' | 'none', extra: object = {}) =>
    spec({
      num_requests: 40,
      aggregate_rate: 2,
      clients: [
        {
          id: 'chat',
          rate_fraction: 1,
          prefix_group: 'sys',
          prefix_length: 64,
          input_distribution: { type: 'gaussian', params: { mean: 100, std_dev: 30, min: 20, max: 300 } },
          output_distribution: { type: 'gaussian', params: { mean: 50, std_dev: 10, min: 10, max: 90 } },
          reasoning: { multi_turn: { max_rounds: 4, think_time_us: 250_000, context_growth: growth } },
          ...extra,
        },
      ],
    });

  it('accumulate: each round extends the previous round, shares all its blocks, and arrives think time after it completes', () => {
    const src = createRequestSource(chat('accumulate'));
    const first = src.next()!;
    expect(first.roundIndex).toBe(0);
    // BLIS's session id: the Int63 the client's stream draws when the session starts.
    expect(first.sessionId).toMatch(/^sess_\d+$/);
    let prev = first;
    let done = first.arrivalUs + 1_234_567;
    src.onRequestDone(prev, done, 'completed');
    const seen: RequestSpec[] = [first];
    for (let round = 1; round < 4; round++) {
      // Open-loop session starts may come first; the follow-up is the one with our session id.
      let r = src.next()!;
      while (r.sessionId !== first.sessionId) r = src.next()!;
      expect(r.roundIndex).toBe(round);
      expect(r.arrivalUs).toBe(done + 250_000);
      // Context = previous prompt + previous answer; then a fresh user turn of >= 20 tokens.
      expect(r.inputTokens).toBeGreaterThanOrEqual(prev.inputTokens + prev.outputTokens + 20);
      expect(r.inputTokens).toBeLessThanOrEqual(prev.inputTokens + prev.outputTokens + 300);
      // Every full block of the previous prompt is a prefix of this one.
      expect(sharedBlocks(prev, r)).toBe(prev.blockHashes.length);
      seen.push(r);
      prev = r;
      done = r.arrivalUs + 10_000;
      src.onRequestDone(r, done, 'completed');
    }
    // The session is over after max_rounds: no fifth round ever comes.
    for (let r = src.next(); r !== undefined; r = src.next()) {
      expect(r.sessionId === first.sessionId).toBe(false);
      src.onRequestDone(r, r.arrivalUs, 'dropped');
    }
    expect(seen.map((r) => r.roundIndex)).toEqual([0, 1, 2, 3]);
  });

  it('none: every round carries the prefix but not the previous context', () => {
    const reqs = drain(createRequestSource(chat('none')));
    const later = reqs.filter((r) => r.roundIndex > 0);
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) {
      expect(r.inputTokens).toBeGreaterThanOrEqual(64 + 20);
      expect(r.inputTokens).toBeLessThanOrEqual(64 + 300);
      const r0 = reqs.find((x) => x.sessionId === r.sessionId && x.roundIndex === 0)!;
      expect(sharedBlocks(r0, r)).toBe(4);
    }
  });

  it('a round that does not complete ends its session', () => {
    const src = createRequestSource(chat('accumulate'));
    const first = src.next()!;
    src.onRequestDone(first, first.arrivalUs + 5, 'timed_out');
    for (let r = src.next(); r !== undefined; r = src.next()) {
      expect(r.sessionId).not.toBe(first.sessionId);
      src.onRequestDone(r, r.arrivalUs, 'completed');
    }
  });

  it("num_requests cuts BLIS's open-loop placement of every round; the sessions kept run all their rounds", () => {
    // The BLIS multi-turn demo's shape: sessions start at 500/s, each places its 5 rounds 500 ms
    // (plus the answer's length in µs) apart. The first 500 placements hold 200 round 0s (and
    // 300 later rounds, which only take their place): 200 sessions, 1,000 requests, as in BLIS.
    const s = spec({
      num_requests: 500,
      aggregate_rate: 500,
      clients: [{ id: 'm', rate_fraction: 1, input_distribution: constant(100), output_distribution: constant(20), reasoning: { multi_turn: { max_rounds: 5, think_time_us: 500_000 } } }],
    });
    const reqs = drain(createRequestSource(s));
    const sessions = new Map<string, number[]>();
    for (const r of reqs) sessions.set(r.sessionId, [...(sessions.get(r.sessionId) ?? []), r.roundIndex]);
    expect(sessions.size).toBe(200);
    expect(reqs).toHaveLength(1000);
    for (const rounds of sessions.values()) expect(rounds).toEqual([0, 1, 2, 3, 4]);
  });

  it('a budget smaller than one session keeps that session whole (BLIS caps no follow-up)', () => {
    const s = spec({
      num_requests: 3,
      clients: [{ id: 'm', rate_fraction: 1, input_distribution: constant(100), output_distribution: constant(20), reasoning: { multi_turn: { max_rounds: 5 } } }],
    });
    // Rounds placed 20 µs apart (no think time, 20-token answers): the 3 placements are one session's.
    expect(drain(createRequestSource(s)).map((r) => r.roundIndex)).toEqual([0, 1, 2, 3, 4]);
  });

  it('closed_loop: false sends every round where BLIS places it: think time plus the answer length in µs after the previous', () => {
    const s = spec({
      num_requests: 10,
      aggregate_rate: 1,
      clients: [{ id: 'm', rate_fraction: 1, closed_loop: false, input_distribution: constant(100), output_distribution: constant(20), reasoning: { multi_turn: { max_rounds: 3, think_time_us: 1000, context_growth: 'accumulate' } } }],
    });
    const reqs = drain(createRequestSource(s));
    expect(reqs).toHaveLength(10);
    const first = reqs.filter((r) => r.sessionId === reqs[0].sessionId);
    expect(first.map((r) => r.arrivalUs - reqs[0].arrivalUs)).toEqual([0, 1020, 2040]);
    // Accumulated context: prefix-free prompts of 100, then 100 + 20 + 100, then 340.
    expect(first.map((r) => r.inputTokens)).toEqual([100, 220, 340]);
    // Open loop: the source does not wait for completions.
    const src = createRequestSource(s);
    const undone: number[] = [];
    for (let r = src.next(); r !== undefined; r = src.next()) undone.push(r.roundIndex);
    expect(undone).toHaveLength(10);
  });

  it('single_session: one session per client, at its first arrival', () => {
    const s = spec({
      num_requests: 100,
      aggregate_rate: 10,
      clients: [
        { id: 'a', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(5), reasoning: { multi_turn: { max_rounds: 4, think_time_us: 100, single_session: true } } },
        { id: 'b', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(5), reasoning: { multi_turn: { max_rounds: 2, single_session: true } } },
      ],
    });
    const reqs = drain(createRequestSource(s));
    expect(new Set(reqs.map((r) => r.sessionId)).size).toBe(2);
    expect(reqs.filter((r) => r.clientId === 'a').map((r) => r.roundIndex)).toEqual([0, 1, 2, 3]);
    expect(reqs.filter((r) => r.clientId === 'b').map((r) => r.roundIndex)).toEqual([0, 1]);
  });
});

describe('the request stream', () => {
  it('is lazy: one pending arrival per client, whatever num_requests is', () => {
    const big = spec({ num_requests: 10_000_000, clients: [{ id: 'a', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(2) }] });
    const src = createRequestSource(big);
    for (let i = 0; i < 1000; i++) src.next();
    expect((src as unknown as { heap: { size: number } }).heap.size).toBe(1);
  });

  it('refuses, naming its file, a request whose group prefix and prompt together pass the per-request token limit', () => {
    // Each length within the limit (the spec reader caps what a spec states), their sum past it:
    // CI's spec fuzz (seed 1446303672) found such a request refused without its file.
    const s = spec({ clients: [{ id: 'a', rate_fraction: 1, prefix_group: 'g', prefix_length: 50, input_distribution: constant(16_777_216), output_distribution: constant(2) }] });
    let caught: unknown;
    try {
      drain(createRequestSource(s, { file: 'spec.yaml' }));
    } catch (e) {
      caught = e;
    }
    expect((caught as Error).name).toBe('WorkloadSpecError');
    expect((caught as Error).message).toBe('spec.yaml clients[0].input_distribution: expected lengths of at most 16777216 tokens per request, found 16777266 tokens (request 0)');
  });

  it('each client draws from its own stream: adding a client does not change the others', () => {
    const a = { id: 'a', rate_fraction: 1, input_distribution: { type: 'exponential' as const, params: { mean: 300 } }, output_distribution: constant(2) };
    const b = { id: 'b', rate_fraction: 1, input_distribution: { type: 'exponential' as const, params: { mean: 50 } }, output_distribution: constant(2) };
    // aggregate_rate doubles with the second client, so client a keeps its own rate.
    const alone = drain(createRequestSource(spec({ aggregate_rate: 10, num_requests: 400, clients: [a] })));
    const both = drain(createRequestSource(spec({ aggregate_rate: 20, num_requests: 800, clients: [a, b] })));
    const pick = (rs: RequestSpec[]) => rs.filter((r) => r.clientId === 'a').map((r) => [r.arrivalUs, r.inputTokens]);
    const n = Math.min(pick(alone).length, pick(both).length, 300);
    expect(n).toBeGreaterThan(250);
    expect(pick(both).slice(0, n)).toEqual(pick(alone).slice(0, n));
  });

  it('the seed option overrides the spec seed; the same seed repeats the stream', () => {
    const s = spec({ clients: [{ id: 'a', rate_fraction: 1, input_distribution: { type: 'exponential', params: { mean: 100 } }, output_distribution: constant(2) }] });
    const key = (rs: RequestSpec[]) => rs.map((r) => `${r.arrivalUs}/${r.inputTokens}`).join();
    expect(key(drain(createRequestSource(s)))).toBe(key(drain(createRequestSource(s))));
    expect(key(drain(createRequestSource(s, { seed: 6 })))).not.toBe(key(drain(createRequestSource(s))));
  });

  it('rate fractions split the aggregate rate', () => {
    const s = spec({
      num_requests: 20_000,
      clients: [
        { id: 'big', rate_fraction: 0.7, input_distribution: constant(10), output_distribution: constant(2) },
        { id: 'small', rate_fraction: 0.3, input_distribution: constant(10), output_distribution: constant(2) },
      ],
    });
    const reqs = drain(createRequestSource(s));
    const share = reqs.filter((r) => r.clientId === 'big').length / reqs.length;
    // Two independent Poisson streams: the share is binomial-like with p = 0.7.
    expect(Math.abs(share - 0.7)).toBeLessThan(5 * Math.sqrt((0.7 * 0.3) / reqs.length));
  });

  it('lifecycle windows: a client sends only inside them', () => {
    const s = spec({
      num_requests: 1000,
      clients: [
        {
          id: 'w',
          rate_fraction: 1,
          input_distribution: constant(10),
          output_distribution: constant(2),
          lifecycle: { windows: [{ start_us: 1_000_000, end_us: 2_000_000 }, { start_us: 5_000_000, end_us: 5_500_000 }] },
        },
      ],
    });
    const reqs = drain(createRequestSource(s));
    expect(reqs.length).toBeGreaterThan(100);
    expect(reqs.length).toBeLessThan(1000);
    for (const r of reqs) expect((r.arrivalUs >= 1_000_000 && r.arrivalUs <= 2_000_000) || (r.arrivalUs >= 5_000_000 && r.arrivalUs <= 5_500_000)).toBe(true);
    expect(reqs.some((r) => r.arrivalUs >= 5_000_000)).toBe(true);
  });

  it('horizon stops arrivals after that tick', () => {
    const s = spec({ num_requests: undefined, horizon: 3_000_000, clients: [{ id: 'h', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(2) }] });
    const reqs = drain(createRequestSource(s));
    expect(reqs.at(-1)!.arrivalUs).toBeLessThanOrEqual(3_000_000);
    // 100 req/s for 3 s: Poisson count 300 ± 5 sqrt(300).
    expect(Math.abs(reqs.length - 300)).toBeLessThan(5 * Math.sqrt(300));
  });

  it('carries the client properties: tenant, SLO class, streaming, timeout as a deadline, SLO target, network delay', () => {
    const s = spec({
      clients: [
        {
          id: 'p',
          tenant_id: 'acme',
          slo_class: 'critical',
          streaming: true,
          timeout: 2_000_000,
          slo_target_us: 150_000,
          network: { rtt_ms: 2, bandwidth_mbps: 1000 },
          rate_fraction: 1,
          input_distribution: constant(1000),
          output_distribution: constant(250),
        },
      ],
    });
    const [r] = drain(createRequestSource(s));
    // 2 ms round trip + (1000 + 250) tokens * 4 bytes * 8 bits / 1000 bit/µs = 2000 + 40 µs.
    expect(r).toMatchObject({ clientId: 'p', tenantId: 'acme', sloClass: 'critical', streaming: true, deadlineUs: r.arrivalUs + 2_000_000, sloTargetUs: 150_000, networkDelayUs: 2040 });
    expect(networkDelay(s.clients[0], 1000, 250)).toBe(2040);
  });

  it("a client without slo_class simulates as standard; defaultSloClass '' (blis observe) sends it without one", () => {
    const s = spec({ clients: [{ id: 'n', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(5) }] });
    expect(s.clients[0].slo_class).toBeUndefined();
    expect(drain(createRequestSource(s))[0].sloClass).toBe('standard');
    expect(drain(createRequestSource(s, { defaultSloClass: '' }))[0].sloClass).toBe('');
    const named = spec({ clients: [{ id: 'c', slo_class: 'batch', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(5) }] });
    expect(drain(createRequestSource(named, { defaultSloClass: '' }))[0].sloClass).toBe('batch');
  });

  it('block hashes depend only on what a TraceV2 row carries', () => {
    const id = { id: '7', inputTokens: 100, prefixGroup: 'g', prefixLength: 32, sessionId: '' };
    expect(Array.from(promptBlockHashes(id, 16))).toEqual(Array.from(promptBlockHashes({ ...id }, 16)));
    expect(promptBlockHashes(id, 16)).toHaveLength(6);
  });
});

describe('any valid spec (fast-check)', () => {
  it('yields non-decreasing arrivals, positive whole lengths, dense indices and the requested count', () => {
    fc.assert(
      fc.property(specArb({ growthNone: true }), (raw) => {
        const s = parseWorkloadSpec(raw);
        const reqs = drain(createRequestSource(s));
        const mt = new Map(s.clients.map((c) => [c.id, c.reasoning?.multi_turn !== undefined && c.closed_loop !== false ? c.reasoning.multi_turn : undefined]));
        // num_requests counts open-loop requests (later rounds of closed-loop sessions take their
        // place, then come as follow-ups on top): exact without closed-loop sessions or clients of
        // a single session (which send no more than it).
        const placed = reqs.filter((r) => mt.get(r.clientId) === undefined || r.roundIndex === 0);
        const single = s.clients.some((c) => c.reasoning?.multi_turn?.single_session === true);
        if ([...mt.values()].every((m) => m === undefined) && !single) expect(reqs).toHaveLength(s.num_requests!);
        else expect(placed.length).toBeLessThanOrEqual(s.num_requests!);
        // Answered at once, every closed-loop session runs its rounds in order, all of them.
        const rounds = new Map<string, number[]>();
        for (const r of reqs) if (mt.get(r.clientId) !== undefined) rounds.set(r.sessionId, [...(rounds.get(r.sessionId) ?? []), r.roundIndex]);
        for (const [id, rs] of rounds) {
          const client = reqs.find((r) => r.sessionId === id)!.clientId;
          expect(rs).toEqual(Array.from({ length: mt.get(client)!.max_rounds }, (_, k) => k));
        }
        let last = 0;
        reqs.forEach((r, i) => {
          expect(r.index).toBe(i);
          expect(Number.isInteger(r.arrivalUs)).toBe(true);
          expect(r.arrivalUs).toBeGreaterThanOrEqual(last);
          last = r.arrivalUs;
          expect(Number.isInteger(r.inputTokens) && r.inputTokens >= 1).toBe(true);
          expect(Number.isInteger(r.outputTokens) && r.outputTokens >= 1).toBe(true);
          expect(r.blockHashes.length).toBe(Math.floor(r.inputTokens / 16));
        });
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});

describe('openLoop', () => {
  /** Every request, with no `onRequestDone` call: what an open-loop stream must equal. */
  function drainDeaf(source: ReturnType<typeof createRequestSource>): RequestSpec[] {
    const out: RequestSpec[] = [];
    for (let r = source.next(); r !== undefined; r = source.next()) out.push(r);
    return out;
  }

  it('is false with a closed-loop session or a concurrency user, true otherwise', () => {
    const client = { id: 'c', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(4) };
    expect(createRequestSource(spec({ clients: [client] })).openLoop).toBe(true);
    expect(createRequestSource(spec({ clients: [{ ...client, reasoning: { multi_turn: { max_rounds: 2 } } }] })).openLoop).toBe(false);
    expect(createRequestSource(spec({ clients: [{ ...client, closed_loop: false, reasoning: { multi_turn: { max_rounds: 2 } } }] })).openLoop).toBe(true);
    expect(createRequestSource(spec({ clients: [client, { ...client, id: 'u', rate_fraction: 0, concurrency: 2 }] })).openLoop).toBe(false);
  });

  it('keeps its promise: answering every request changes nothing in an open-loop stream', () => {
    fc.assert(
      fc.property(specArb(), (raw) => {
        const s = parseWorkloadSpec(raw);
        fc.pre(createRequestSource(s).openLoop === true);
        expect(drain(createRequestSource(s))).toEqual(drainDeaf(createRequestSource(s)));
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
