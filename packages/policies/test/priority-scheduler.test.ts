import { describe, expect, it } from 'vitest';
import type { SchedulerContext, SchedulerEntry } from '../src/index.js';
import {
  createConstantPriority,
  createFcfsScheduler,
  createInvertedSloPriority,
  createPriorityFcfsScheduler,
  createReversePriorityScheduler,
  createSjfScheduler,
  createSloBasedPriority,
  createSloClassPriority,
} from '../src/internal.js';
import { entry, request } from '../src/testing/index.js';

describe('priority policies', () => {
  it('constant returns its score (default 0)', () => {
    expect(createConstantPriority().priority(request(), 5)).toBe(0);
    expect(createConstantPriority({ score: 7 }).priority(request(), 5)).toBe(7);
    expect(createConstantPriority().timeDependent).toBe(false);
  });
  it('slo-based is base + 1e-6 * age by default; inverted-slo subtracts', () => {
    const r = request({ arrivalUs: 500_000 });
    expect(createSloBasedPriority().priority(r, 2_000_000)).toBeCloseTo(1.5, 12);
    expect(createInvertedSloPriority().priority(r, 2_000_000)).toBeCloseTo(-1.5, 12);
    expect(createSloBasedPriority({ base: 2, ageWeight: 1e-3 }).priority(r, 501_000)).toBeCloseTo(
      3,
      12,
    );
    expect(createSloBasedPriority().timeDependent).toBe(true);
    expect(createSloBasedPriority({ ageWeight: 0 }).timeDependent).toBe(false);
  });
  it('slo-class maps classes with the GAIE table; empty and unknown count as standard', () => {
    const p = createSloClassPriority();
    const scores = ['critical', 'standard', 'batch', 'sheddable', 'background', '', 'vip'].map(
      (c) => p.priority(request({ sloClass: c }), 0),
    );
    expect(scores).toEqual([4, 3, -1, -2, -3, 3, 3]);
    expect(p.timeDependent).toBe(false);
  });
  it('slo-class takes overrides and an optional age term', () => {
    const p = createSloClassPriority({
      priorities: { vip: 9 },
      unknownPriority: 0,
      ageWeight: 1e-6,
    });
    expect(p.priority(request({ sloClass: 'vip', arrivalUs: 0 }), 1_000_000)).toBeCloseTo(10, 12);
    expect(p.priority(request({ sloClass: 'other', arrivalUs: 0 }), 2_000_000)).toBeCloseTo(2, 12);
    expect(p.timeDependent).toBe(true);
  });
});

describe('instance schedulers', () => {
  const ctx: SchedulerContext = { nowUs: 0, instanceIndex: 0, queueDepth: 4, batchSize: 0 };
  const queue: SchedulerEntry[] = [
    entry({ index: 0, priority: 1, arrivalUs: 30, inputTokens: 500 }, 0),
    entry({ index: 1, priority: 5, arrivalUs: 40, inputTokens: 100 }, 1),
    entry({ index: 2, priority: 1, arrivalUs: 10, inputTokens: 100 }, 2),
    entry({ index: 3, priority: 5, arrivalUs: 40, inputTokens: 900 }, 3),
    entry({ index: 4, priority: 1, arrivalUs: 10, inputTokens: 100 }, 4),
  ];
  const order = (
    compare: ((a: SchedulerEntry, b: SchedulerEntry, c: SchedulerContext) => number) | undefined,
  ) => [...queue].sort((a, b) => compare?.(a, b, ctx) ?? 0).map((e) => e.request.index);

  it('fcfs has no compare function, so the engine keeps arrival order', () => {
    expect(createFcfsScheduler().compare).toBeUndefined();
  });
  it('priority-fcfs: priority desc, arrival asc, then enqueue order', () => {
    expect(order(createPriorityFcfsScheduler().compare)).toEqual([1, 3, 2, 4, 0]);
  });
  it('sjf: input tokens asc, arrival asc, then enqueue order', () => {
    expect(order(createSjfScheduler().compare)).toEqual([2, 4, 1, 0, 3]);
  });
  it('reverse-priority: priority asc, arrival asc, then enqueue order', () => {
    expect(order(createReversePriorityScheduler().compare)).toEqual([2, 4, 0, 1, 3]);
  });
});
