import { parseWorkloadSpec, type WorkloadSpecInput, createRequestSource } from '@blis/workload';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inActiveWindow } from '../../src/blis-draws.js';
import { drain, specArb } from '../../src/testing/index.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });
const base = { version: '2' as const, seed: 3, aggregate_rate: 50, num_requests: 200 };

describe('cohorts expand into clients (BLIS ExpandCohorts)', () => {
  it('members <id>-<j> after the file clients, each with rate_fraction / population, the cohort fields and its windows', () => {
    const s = parseWorkloadSpec({
      ...base,
      clients: [{ id: 'solo', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(2) }],
      cohorts: [
        { id: 'web', population: 4, rate_fraction: 2, tenant_id: 'w', slo_class: 'sheddable', streaming: true, input_distribution: constant(20), output_distribution: constant(3), prefix_group: 'sys', prefix_length: 64, spike: { start_time_us: 0, duration_us: 5_000_000 } },
        { id: 'repo', population: 2, rate_fraction: 1, input_distribution: constant(30), output_distribution: constant(4), prefix_group: 'r', prefix_sharing: 'per_member' },
      ],
    });
    expect(s.clients.map((c) => c.id)).toEqual(['solo', 'web-0', 'web-1', 'web-2', 'web-3', 'repo-0', 'repo-1']);
    expect(s.clients[1]).toMatchObject({ rate_fraction: 0.5, tenant_id: 'w', slo_class: 'sheddable', streaming: true, prefix_group: 'sys', prefix_length: 64 });
    expect(s.clients[1].lifecycle!.windows).toEqual([{ start_us: 0, end_us: 5_000_000 }]);
    // Members share their cohort's windows (the rate computations group by them).
    expect(s.clients[2].lifecycle).toBe(s.clients[1].lifecycle);
    expect(s.clients.slice(5).map((c) => [c.prefix_group, c.rate_fraction, c.lifecycle])).toEqual([
      ['r-0', 0.5, undefined],
      ['r-1', 0.5, undefined],
    ]);
  });

  it('a spec of cohorts alone runs, and each member sends only inside its windows (fast-check)', () => {
    const cohort = fc.record({
      population: fc.integer({ min: 1, max: 5 }),
      rate_fraction: fc.double({ min: 0.1, max: 3, noNaN: true }),
      diurnal: fc.option(fc.record({ peak_hour: fc.integer({ min: 0, max: 23 }), peak_to_trough_ratio: fc.double({ min: 1, max: 5000, noNaN: true }) }), { nil: undefined }),
      spike: fc.option(fc.record({ start_time_us: fc.integer({ min: 0, max: 5_000_000 }), duration_us: fc.integer({ min: 1, max: 5_000_000 }) }), { nil: undefined }),
      drain: fc.option(fc.record({ start_time_us: fc.integer({ min: 0, max: 5_000_000 }), ramp_duration_us: fc.integer({ min: 1, max: 10_000_000 }) }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(cohort, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 1000 }), (cohorts, seed) => {
        const raw = {
          version: '2',
          seed,
          aggregate_rate: 200,
          num_requests: 60,
          horizon: 30_000_000,
          cohorts: cohorts.map((c, i) => ({ id: `c${i}`, input_distribution: constant(10), output_distribution: constant(2), ...c })),
        } as WorkloadSpecInput;
        const s = parseWorkloadSpec(raw);
        expect(s.clients).toHaveLength(cohorts.reduce((a, c) => a + c.population, 0));
        const byId = new Map(s.clients.map((c) => [c.id, c]));
        for (const r of drain(createRequestSource(s))) {
          const w = byId.get(r.clientId)!.lifecycle?.windows;
          if (w !== undefined) expect(inActiveWindow(r.arrivalUs, w)).toBe(true);
        }
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it('specArb generates cohorts that parse and run', () => {
    fc.assert(
      fc.property(specArb({ maxRequests: 30 }), (raw) => {
        const s = parseWorkloadSpec(raw);
        expect(s.clients.length).toBeGreaterThanOrEqual((raw.clients?.length ?? 0));
        drain(createRequestSource(s));
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});
