// The ./testing contract harness, tested by use: every built-in policy passes it, and each kind
// of misbehaviour it promises to catch is caught, with a seed to replay it.
import { describe, expect, it } from 'vitest';
import {
  listPolicies,
  type PolicyFactoryContext,
  type PolicyKind,
  POLICY_KINDS,
  parsePolicyBundle,
  type RequestView,
  type RoutingPolicy,
  type Scorer,
} from '../src/index.js';
import { defaultPolicyRegistry } from '../src/default-registry.js';
import { assertPolicyContract, checkPolicyContract, formatContractReport, policyBundleArb } from '../src/testing/index.js';
import fc from 'fast-check';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** Params some built-ins need to build at all. */
const PARAMS: Record<string, Record<string, unknown>> = { 'tenant-quota': { maxInFlight: 10 } };

describe('every built-in policy keeps the contract', () => {
  const listing = listPolicies();
  for (const kind of POLICY_KINDS) {
    for (const name of listing[kind]) {
      it(`${kind} ${name}`, () => {
        assertPolicyContract(kind, defaultPolicyRegistry.factory(kind, name), { numRuns: propertyRuns(40), params: PARAMS[name] ?? {} });
      });
    }
  }
});

const leastQueue = (ctx: PolicyFactoryContext): RoutingPolicy => ({
  name: 'least-queue',
  route(r, s) {
    let best = 0;
    for (let i = 1; i < s.instances.length; i++) if (s.instances[i].queueDepth < s.instances[best].queueDepth) best = i;
    return { instance: best, reason: `n=${ctx.numInstances} r=${r.index}` };
  },
});

function failuresOf(kind: PolicyKind, factory: Parameters<typeof checkPolicyContract>[1]) {
  const report = checkPolicyContract(kind, factory, { numRuns: propertyRuns(50), print: false });
  return report;
}

describe('the harness catches bad policies', () => {
  it('a well-behaved custom router passes', () => {
    expect(failuresOf('routing', leastQueue).ok).toBe(true);
  });

  it('out of range: an instance index past the end', () => {
    const report = failuresOf('routing', () => ({ name: 'off-by-one', route: (_r, s) => ({ instance: s.instances.length, reason: '' }) }));
    expect(report.ok).toBe(false);
    const f = report.failures.find((x) => x.property === 'valid-decisions');
    expect(f?.message).toMatch(/routing policy "off-by-one": route\(\) for request 0 \("r0"\) at \d+ µs: returned instance 1; expected an integer in 0\.\.0/);
    expect(typeof f?.seed).toBe('number');
    expect(f?.counterexample?.instances).toBe(1);
  });

  it('mutating: a router that bumps a snapshot queue depth, a scorer that rewrites the request priority', () => {
    const bump = checkPolicyContract('routing', () => ({
      name: 'bumper',
      route(_r, s) {
        (s.instances[0] as { queueDepth: number }).queueDepth += 1;
        return { instance: 0, reason: '' };
      },
    }), { numRuns: propertyRuns(20), print: false });
    expect(bump.failures.map((f) => f.property)).toEqual(['no-input-mutation']);
    expect(bump.failures[0].message).toMatch(/wrote state\.instances\[0\]\.queueDepth/);

    const scorer = (): Scorer => ({
      name: 'priority-writer',
      score(r, _s, out) {
        (r as { priority: number }).priority = 5;
        out.fill(0.5);
      },
    });
    const report = checkPolicyContract('scorer', scorer, { numRuns: propertyRuns(20), print: false });
    expect(report.failures.map((f) => f.property)).toEqual(['no-input-mutation']);
    expect(report.failures[0].message).toMatch(/scorer "priority-writer": wrote request\.priority/);
  });

  it('nondeterministic: a router that ignores its random stream', () => {
    let calls = 0;
    const report = checkPolicyContract('routing', () => ({ name: 'flaky', route: (_r, s) => ({ instance: calls++ % s.instances.length, reason: '' }) }), {
      numRuns: propertyRuns(30),
      instances: { min: 2, max: 4 },
      print: false,
    });
    expect(report.failures.map((f) => f.property)).toEqual(['deterministic']);
    expect(report.failures[0].message).toMatch(/decided differently at step \d+/);
  });

  it('a router that draws from its own seeded random stream is deterministic', () => {
    const report = checkPolicyContract('routing', (ctx) => ({ name: 'random', route: (_r, s) => ({ instance: Math.floor(ctx.random.next() * s.instances.length), reason: '' }) }), { numRuns: propertyRuns(30), print: false });
    expect(report.ok).toBe(true);
  });

  it('output-peeking: an admission policy that reads outputTokens, or asks whether it is there', () => {
    const peek = checkPolicyContract('admission', () => ({
      name: 'peeker',
      admit: (r: RequestView) => ({ admit: ((r as unknown as { outputTokens?: number }).outputTokens ?? 0) < 100, reason: '' }),
    }), { numRuns: propertyRuns(20), print: false });
    expect(peek.failures.map((f) => f.property)).toEqual(['no-output-length']);
    expect(peek.failures[0].message).toMatch(/admission policy "peeker": read request\.outputTokens/);
    const probe = checkPolicyContract('priority', () => ({
      name: 'prober',
      priority: (r: RequestView) => ('outputTokens' in r ? 1 : 0),
    }), { numRuns: propertyRuns(10), print: false });
    expect(probe.failures.map((f) => f.property)).toEqual(['no-output-length']);
    expect(probe.failures[0].message).toMatch(/read request\.outputTokens \(an `in` test\)/);
  });

  it('NaN scores, a throwing decider, a fractional autoscaler delta, non-finite metrics', () => {
    const nan = failuresOf('scorer', () => ({ name: 'nan', score: (_r, _s, out) => out.fill(Number.NaN) }));
    expect(nan.failures[0].message).toMatch(/wrote NaN for instance 0/);
    const thrower = failuresOf('decider', () => ({
      name: 'thrower',
      decide: () => {
        throw new RangeError('boom');
      },
    }));
    expect(thrower.failures.map((f) => f.property)).toEqual(['valid-decisions']);
    expect(thrower.failures[0].message).toMatch(/decide\(\) for request 0 \("r0"\) at \d+ µs: threw RangeError: boom/);
    const half = failuresOf('autoscaler', () => ({ name: 'half', evaluate: () => ({ delta: 0.5, reason: '' }) }));
    expect(half.failures[0].message).toMatch(/returned delta 0\.5; expected a whole number/);
    const metrics = failuresOf('priority', () => ({ name: 'm', priority: () => 1, metrics: () => ({ ratio: Number.POSITIVE_INFINITY }) }));
    expect(metrics.failures[0].message).toMatch(/metrics\(\): ratio is Infinity/);
  });

  it('a failure replays from its seed and path; the report prints them; assert throws the report', () => {
    const bad = () => ({ name: 'last', route: (_r: RequestView, s: { instances: readonly unknown[] }) => ({ instance: s.instances.length > 3 ? 7 : 0, reason: '' }) });
    const first = checkPolicyContract('routing', bad, { numRuns: propertyRuns(100), properties: ['valid-decisions'], print: false });
    const f = first.failures[0];
    const again = checkPolicyContract('routing', bad, { numRuns: propertyRuns(100), properties: ['valid-decisions'], seed: f.seed, path: f.path, print: false });
    expect(again.failures[0].counterexample).toEqual(f.counterexample);
    const printed: string[] = [];
    checkPolicyContract('routing', bad, { numRuns: propertyRuns(100), properties: ['valid-decisions'], print: (t) => printed.push(t) });
    expect(printed.join('\n')).toMatch(/replay with \{ seed: -?\d+, path: "[\d:]*" \}/);
    expect(formatContractReport(first)).toContain('routing policy "last" breaks its contract');
    expect(() => assertPolicyContract('routing', bad, { numRuns: propertyRuns(100) })).toThrow(/returned instance 7/);
  });
});

describe('policyBundleArb', () => {
  it('every generated bundle validates', () => {
    fc.assert(
      fc.property(policyBundleArb(), (bundle) => {
        const r = parsePolicyBundle(bundle);
        if (!r.success) throw new Error(JSON.stringify(r.issues));
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});
