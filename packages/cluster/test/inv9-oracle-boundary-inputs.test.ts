import { ArrayRequestSource, type RequestSpec, SimRequest } from '@blis/engine';
import { type RoutingPolicy, createPolicyRegistry, policyContext } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { hashesFor, spec } from './helpers.js';
import { Inspector, findLeaks, inspectAdmission, inspectPriority, inspectRouting, inspectScheduler } from './policy-input-inspector.js';

// INV-9, the oracle boundary: admission, priority, routing and scheduling never learn how long
// a request's answer will be. Proved structurally on real cluster runs: everything every built-in
// policy is handed (the request view, the router state with its instance snapshots and tenant
// records, scheduler entries and context) is walked through every own and inherited property; no
// key names an output length and no engine request is reachable. The policy itself gets a
// read-only proxy of its inputs and the live state is fingerprinted around each call, so a write
// would fail the test. inv9-oracle-boundary-decisions.test.ts proves it behaviourally.

const registry = createPolicyRegistry();

/**
 * 80 requests on 3 instances with a small KV cache (preemptions), two tenants, all SLO classes,
 * sessions and shared prefixes, arriving in bursts, with flow control on: every policy input is
 * exercised, saturation included.
 */
const CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background', ''];
const WORKLOAD: RequestSpec[] = Array.from({ length: 80 }, (_, i) => {
  const n = 64 + ((i * 7919) % 700);
  const g = `g${i % 3}`;
  return spec(i, Math.floor(i / 8) * 30_000 + i, n, 1 + ((i * 104729) % 90), {
    tenantId: i % 5 === 0 ? 'b' : 'a',
    sloClass: CLASSES[i % CLASSES.length],
    sessionId: `s${i % 7}`,
    prefixGroup: g,
    blockHashes: hashesFor(n, g, 3, `u${i}`),
  });
});

function inspectedRun(runtime: Parameters<typeof simulate>[1], cfg: Parameters<typeof simulate>[0] = {}) {
  return simulate(
    { numInstances: 3, totalKVBlocks: 120, maxNumSeqs: 8, checkInvariants: true, flowControl: { enabled: true, maxGatewayQueueDepth: 30 }, ...cfg },
    { source: new ArrayRequestSource(WORKLOAD), ...runtime },
  );
}

const ctx = (params: Record<string, unknown> = {}) => policyContext({ numInstances: 3, params });
const ADMISSION_PARAMS: Record<string, Record<string, unknown>> = {
  'tenant-quota': { maxInFlight: 10 },
  'token-bucket': { capacity: 3000, refillRate: 20_000 },
};

describe('INV-9 (a): the inputs of every built-in policy carry no output length', () => {
  it.each(registry.names('admission'))('admission %s', (name) => {
    const ins = new Inspector();
    const r = inspectedRun({ admission: inspectAdmission(registry.createAdmissionPolicy(name, ctx(ADMISSION_PARAMS[name])), ins) });
    expect(ins.calls).toBe(80);
    expect(ins.leaks).toEqual([]);
    expect(r.injected_requests).toBe(80);
  });

  it.each(registry.names('priority'))('priority %s', (name) => {
    const ins = new Inspector();
    inspectedRun({ priority: inspectPriority(registry.createPriorityPolicy(name, ctx()), ins) }, { scheduler: { policy: 'priority-fcfs' } });
    expect(ins.calls).toBeGreaterThanOrEqual(80);
    expect(ins.leaks).toEqual([]);
  });

  it.each(registry.names('routing'))('routing %s', (name) => {
    const ins = new Inspector();
    const params = name === 'weighted' ? { scorers: registry.names('scorer').map((s, i) => ({ name: s, weight: i + 1 })) } : {};
    const r = inspectedRun({ routing: inspectRouting(registry.createRoutingPolicy(name, ctx(params)), ins) });
    expect(ins.calls).toBeGreaterThanOrEqual(r.injected_requests - r.rejected_requests);
    expect(ins.leaks).toEqual([]);
  });

  it.each(registry.names('scheduler').filter((n) => n !== 'fcfs'))('scheduler %s', (name) => {
    const ins = new Inspector();
    inspectedRun(
      {
        scheduler: () => inspectScheduler(registry.createScheduler(name, ctx()), ins),
        priority: registry.createPriorityPolicy('slo-class', ctx()),
      },
      { maxNumSeqs: 2 },
    );
    expect(ins.calls).toBeGreaterThan(0);
    expect(ins.leaks).toEqual([]);
  });

  it('the walker does find an output length when one is reachable', () => {
    // Guards the guard: an engine request, or any object with an output-length key, is found
    // through nesting, Maps, prototypes and non-enumerable properties.
    const req = new SimRequest(spec(0, 0, 10, 5), 0);
    expect(findLeaks({ a: [{ b: req }] }, 'x')).toContain('x.a.0.b is an engine SimRequest');
    expect(findLeaks({ m: new Map([[1, { outputTokens: 3 }]]) }, 'x')).toEqual(['x.m.get(1).outputTokens']);
    class Hidden {
      get decodeSteps() {
        return 1;
      }
    }
    expect(findLeaks(new Hidden(), 'x')).toEqual(['x (prototype).decodeSteps']);
    const o = {};
    Object.defineProperty(o, 'secret', { value: { maxTokens: 1 }, enumerable: false });
    expect(findLeaks(o, 'x')).toEqual(['x.secret.maxTokens']);
  });

  it('the read-only proxy stops a policy that writes to its inputs', () => {
    const writer: RoutingPolicy = {
      name: 'writer',
      route(req) {
        (req as { inputTokens: number }).inputTokens = 1;
        return { instance: 0, reason: '' };
      },
    };
    expect(() => inspectedRun({ routing: inspectRouting(writer, new Inspector()) })).toThrow(/policy tried to write request.inputTokens/);
    const stateWriter: RoutingPolicy = {
      name: 'state-writer',
      route(_req, state) {
        (state.instances[1] as { queueDepth: number }).queueDepth = 0;
        return { instance: 0, reason: '' };
      },
    };
    expect(() => inspectedRun({ routing: inspectRouting(stateWriter, new Inspector()) })).toThrow(/policy tried to write state.instances.1.queueDepth/);
  });
});
