import { describe, expect, it } from 'vitest';
import { type IpArrival, inferencePerfArrivals } from '../../src/inference-perf/inference-perf-arrivals.js';
import { CHAT_TWO_STAGES, planOf, section } from './ip-helpers.js';

// The first arrivals BLIS's GenerateRequests makes for an expanded section: the shape of the
// stream (order, windows, counts, the num_requests cut, determinism), not its exact draws (the
// golden pins and the golden experiments hold those).

const INF = Number.POSITIVE_INFINITY;

const isSorted = (a: readonly IpArrival[]) => a.every((x, i) => i === 0 || a[i - 1].arrivalUs <= x.arrivalUs);

const multiStage = planOf(section([{ rate: 3, duration: 20 }, { rate: 9, duration: 10 }, { rate: 1, duration: 30 }], { num_unique_system_prompts: 2, num_users_per_system_prompt: 3 }));
const singleStage = planOf(section([{ rate: 7.5, duration: 40 }], { num_unique_system_prompts: 3, num_users_per_system_prompt: 4 }));

describe('inferencePerfArrivals', () => {
  it('is sorted by arrival, for every kind of section', () => {
    const chat = planOf(CHAT_TWO_STAGES);
    const singleChat = planOf(section([{ rate: 5, duration: 60 }], { num_users_per_system_prompt: 6, enable_multi_turn_chat: true }));
    for (const [plan, seed] of [[multiStage, 1], [singleStage, 2], [chat, 42], [singleChat, 3]] as const) {
      const a = inferencePerfArrivals(plan, seed, INF, undefined);
      expect(a.length).toBeGreaterThan(0);
      expect(isSorted(a)).toBe(true);
    }
  });

  it('places a multi-stage client\'s arrivals inside its stage\'s window', () => {
    for (const seed of [1, 2, 3]) {
      const a = inferencePerfArrivals(multiStage, seed, INF, undefined);
      for (const x of a) {
        const w = multiStage.clients[x.client].window!;
        expect(x.arrivalUs).toBeGreaterThanOrEqual(w.start);
        expect(x.arrivalUs).toBeLessThan(w.end);
      }
      // Every stage sends something (≈ 60, 90 and 30 requests expected).
      expect(new Set(a.map((x) => multiStage.clients[x.client].stage))).toEqual(new Set([0, 1, 2]));
    }
  });

  it('starts a multi-stage chat session inside its window; only first rounds are listed', () => {
    const chat = planOf(CHAT_TWO_STAGES);
    const a = inferencePerfArrivals(chat, 42, INF, undefined);
    expect(a.every((x) => x.round === 0 && x.sessionId.startsWith('sess_'))).toBe(true);
    // One session per client at most, each within its client's window.
    expect(new Set(a.map((x) => x.client)).size).toBe(a.length);
    for (const x of a) {
      const w = chat.clients[x.client].window!;
      expect(x.arrivalUs >= w.start && x.arrivalUs < w.end).toBe(true);
    }
  });

  it('gives a single-stage client exactly its share, the last no later than the stage\'s end', () => {
    // 7.5 × 40 = 300 requests over 12 clients: 25 each.
    for (const seed of [1, 7, 99]) {
      const a = inferencePerfArrivals(singleStage, seed, INF, undefined);
      expect(a).toHaveLength(300);
      singleStage.clients.forEach((c, i) => {
        const own = a.filter((x) => x.client === i);
        expect(own).toHaveLength(c.sampler.kind === 'normalized' ? c.sampler.count : -1);
        // BLIS's normalised timer truncates each scaled gap, so the gaps sum to at most 40 s.
        expect(own[own.length - 1].arrivalUs).toBeLessThanOrEqual(40_000_000);
      });
    }
  });

  it('gives uneven shares when the clients do not divide the total', () => {
    // 2.5 × 13 = 32 requests over 6: [6, 6, 5, 5, 5, 5].
    const plan = planOf(section([{ rate: 2.5, duration: 13 }], { num_unique_system_prompts: 2, num_users_per_system_prompt: 3 }));
    const a = inferencePerfArrivals(plan, 5, INF, undefined);
    expect(plan.clients.map((_, i) => a.filter((x) => x.client === i).length)).toEqual([6, 6, 5, 5, 5, 5]);
  });

  it('cuts at num_requests after sorting, keeping the earliest', () => {
    for (const plan of [multiStage, singleStage]) {
      const all = inferencePerfArrivals(plan, 11, INF, undefined);
      for (const n of [1, 10, 57]) expect(inferencePerfArrivals(plan, 11, INF, n)).toEqual(all.slice(0, n));
      // A cut above the total changes nothing.
      expect(inferencePerfArrivals(plan, 11, INF, all.length + 5)).toEqual(all);
    }
  });

  it('stops at the horizon', () => {
    const all = inferencePerfArrivals(multiStage, 4, INF, undefined);
    const h = 25_000_000;
    expect(inferencePerfArrivals(multiStage, 4, h, undefined)).toEqual(all.filter((x) => x.arrivalUs < h));
  });

  it('repeats itself for one seed and changes with another', () => {
    for (const plan of [multiStage, singleStage, planOf(CHAT_TWO_STAGES)]) {
      const a = inferencePerfArrivals(plan, 42, INF, undefined);
      expect(inferencePerfArrivals(plan, 42, INF, undefined)).toEqual(a);
      const b = inferencePerfArrivals(plan, 43, INF, undefined);
      expect(b.map((x) => x.arrivalUs)).not.toEqual(a.map((x) => x.arrivalUs));
    }
  });
});
