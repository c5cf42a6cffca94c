import { describe, expect, it } from 'vitest';
import {
  type AdmissionPolicy,
  type AutoScaleContext,
  type AutoScalePolicy,
  type DisaggregationDecider,
  guardPolicy,
  type InstanceScheduler,
  PolicyError,
  type PriorityPolicy,
  type RoutingDecision,
  type RoutingPolicy,
  type Scorer,
} from '../src/index.js';
import { isGuardedPolicy } from '../src/internal.js';
import { entry, request, routerState, snapshots } from '../src/testing/index.js';

const r17 = request({ index: 17, id: 'r17' });
const state4 = routerState(snapshots({}, {}, {}, {}), { nowUs: 1200 });

const router = (route: RoutingPolicy['route'], extra: Partial<RoutingPolicy> = {}): RoutingPolicy => ({ name: 'x', route, ...extra });

/** The PolicyError `fn` throws (fails the test when it throws something else or nothing). */
function policyError(fn: () => unknown): PolicyError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PolicyError) return e;
    throw e;
  }
  throw new Error('expected a PolicyError, nothing was thrown');
}

describe('guardPolicy: routing decisions', () => {
  it('names the policy, its source, the method and the decision for an instance out of range', () => {
    const p = guardPolicy('routing', router(() => ({ instance: 9, reason: 'r' })), { source: './x.mjs' });
    const e = policyError(() => p.route(r17, state4));
    expect(e.message).toBe('routing policy "x" (./x.mjs): route() for request 17 ("r17") at 1200 µs: returned instance 9; expected 0..3');
    expect(e).toMatchObject({ kind: 'routing', policyName: 'x', source: './x.mjs', method: 'route', context: 'request 17 ("r17") at 1200 µs', problem: 'returned instance 9; expected 0..3' });
  });

  it.each([
    [{ instance: -1, reason: '' }, 'returned instance -1; expected 0..3'],
    [{ instance: 1.5, reason: '' }, 'returned instance 1.5; expected 0..3'],
    [{ instance: Number.NaN, reason: '' }, 'returned instance NaN; expected 0..3'],
    [{ reason: '' }, 'returned instance nothing; expected 0..3'],
    [undefined, 'returned nothing; expected a decision object { instance, reason }'],
    [{ instance: 0, reason: '', reject: 'yes' }, 'returned reject "yes"; expected true, false or nothing'],
    [{ instance: 0, reason: '', priority: Number.NaN }, 'returned priority NaN; expected a finite number or nothing'],
    [{ instance: 0, reason: '', scores: [0, 1, Number.NaN, 0] }, 'returned scores[2] = NaN; expected finite numbers'],
    [{ instance: 0, reason: '', breakdown: { q: new Float64Array([0, Number.POSITIVE_INFINITY]) } }, 'returned breakdown["q"][1] = Infinity; expected finite numbers'],
  ])('refuses %j', (decision, problem) => {
    const p = guardPolicy('routing', router(() => decision as RoutingDecision));
    expect(policyError(() => p.route(r17, state4)).problem).toBe(problem);
  });

  it('passes decisions within the contract through unchanged, a rejection with any instance included', () => {
    const ok: RoutingDecision = { instance: 3, reason: 'r', scores: [0, 0, 0, 1], breakdown: { a: [1, 2, 3, 4] }, priority: -2 };
    expect(guardPolicy('routing', router(() => ok)).route(r17, state4)).toBe(ok);
    const reject: RoutingDecision = { instance: -1, reason: 'full', reject: true };
    expect(guardPolicy('routing', router(() => reject)).route(r17, state4)).toBe(reject);
  });

  it('maps a throw, keeping the cause, and hooks that throw name their context', () => {
    const boom = new Error('boom\n    at secret (internal.js:1:1)');
    const p = guardPolicy(
      'routing',
      router(
        () => {
          throw boom;
        },
        {
          onComplete: () => {
            throw new Error('late');
          },
          onEvent: () => {
            throw 'a string';
          },
        },
      ),
    );
    const e = policyError(() => p.route(r17, state4));
    expect(e.message).toBe('routing policy "x": route() for request 17 ("r17") at 1200 µs: threw: boom');
    expect(e.cause).toBe(boom);
    expect(policyError(() => p.onComplete!(r17, 2)).message).toBe('routing policy "x": onComplete() for request 17 ("r17") completed on instance 2: threw: late');
    expect(policyError(() => p.onEvent!({ kind: 'routed', nowUs: 1500, request: r17, instance: 1 })).message).toBe(
      'routing policy "x": onEvent() for the routed event of request 17 ("r17") at 1500 µs: threw: a string',
    );
  });

  it('lets another policy\'s PolicyError through unchanged', () => {
    const inner = new PolicyError({ kind: 'scorer', policyName: 's', method: 'score', context: 'c', problem: 'p' });
    const p = guardPolicy(
      'routing',
      router(() => {
        throw inner;
      }),
    );
    expect(policyError(() => p.route(r17, state4))).toBe(inner);
  });

  it('keeps the shape: name and data live, optional hooks absent when the policy has none, extra methods bound', () => {
    class Counter implements RoutingPolicy {
      readonly name = 'counter';
      n = 0;
      route(): RoutingDecision {
        this.n++;
        return { instance: this.n % 4, reason: '' };
      }
      total(): number {
        return this.n;
      }
    }
    const c = new Counter();
    const p = guardPolicy('routing', c) as RoutingPolicy & { n: number; total(): number };
    expect(p.name).toBe('counter');
    expect(p.onEvent).toBeUndefined();
    expect(p.onComplete).toBeUndefined();
    expect(p.metrics).toBeUndefined();
    p.route(r17, state4);
    expect(p.n).toBe(1);
    expect(p.total()).toBe(1);
    expect(isGuardedPolicy(p)).toBe(true);
    expect(isGuardedPolicy(c)).toBe(false);
  });
});

describe('guardPolicy: the other kinds', () => {
  it('admission: admit must be a boolean', () => {
    const p = guardPolicy('admission', { name: 'a', admit: () => ({ admit: 1, reason: '' }) } as unknown as AdmissionPolicy);
    expect(policyError(() => p.admit(r17, state4)).message).toBe('admission policy "a": admit() for request 17 ("r17") at 1200 µs: returned admit 1; expected true or false');
  });

  it('priority: a finite number, with the time argument in the context; timeDependent forwarded', () => {
    const p = guardPolicy('priority', { name: 'p', timeDependent: true, priority: () => Number.POSITIVE_INFINITY } as PriorityPolicy);
    expect(p.timeDependent).toBe(true);
    expect(policyError(() => p.priority(r17, 800)).message).toBe('priority policy "p": priority() for request 17 ("r17") at 800 µs: returned Infinity; expected a finite number');
  });

  it('scorer: every score written must be finite; observe throws are mapped', () => {
    const s: Scorer = {
      name: 's',
      score: (_r, _s, out) => out.fill(0.5).fill(Number.NaN, 1, 2),
      observe: () => {
        throw new Error('no');
      },
    };
    const p = guardPolicy('scorer', s, { source: 'mod.mjs' });
    expect(policyError(() => p.score(r17, state4, new Float64Array(4))).message).toBe(
      'scorer "s" (mod.mjs): score() for request 17 ("r17") at 1200 µs: left out[1] = NaN; expected a finite score for every instance',
    );
    expect(policyError(() => p.observe!(r17, 2, state4)).problem).toBe('threw: no');
  });

  it('scheduler: compare must be finite and names both requests; no compare stays no compare', () => {
    const p = guardPolicy('scheduler', { name: 'q', compare: () => Number.NaN } as InstanceScheduler);
    const e = policyError(() => p.compare!(entry({ index: 3, id: 'r3' }, 0), entry({ index: 5, id: 'r5' }, 1), { nowUs: 90, instanceIndex: 2, queueDepth: 2, batchSize: 0 }));
    expect(e.message).toBe('scheduler "q": compare() for request 3 ("r3") and request 5 ("r5") on instance 2 at 90 µs: returned NaN; expected a finite number');
    expect(guardPolicy('scheduler', { name: 'fcfs' }).compare).toBeUndefined();
  });

  it('decider: a boolean, and a decode pod in the pool', () => {
    const bad = (d: unknown) => guardPolicy('decider', { name: 'd', decide: () => d } as unknown as DisaggregationDecider);
    expect(policyError(() => bad({ disaggregate: 'yes', reason: '' }).decide(r17, state4, 0)).problem).toBe('returned disaggregate "yes"; expected true or false');
    expect(policyError(() => bad({ disaggregate: true, reason: '', decodeInstance: 4 }).decide(r17, state4, 0)).message).toBe(
      'P/D decider "d": decide() for request 17 ("r17") at 1200 µs: returned decodeInstance 4; expected 0..3',
    );
    expect(bad({ disaggregate: true, reason: '', decodeInstance: 3 }).decide(r17, state4, 0)).toEqual({ disaggregate: true, reason: '', decodeInstance: 3 });
  });

  it('autoscaler: a whole delta, the scaling group in the context', () => {
    const p = guardPolicy('autoscaler', { name: 'as', evaluate: () => ({ delta: 1.5, reason: '' }) } as AutoScalePolicy);
    const ctx = { nowUs: 5_000_000, pool: 'decode', replicas: [], history: [] } as unknown as AutoScaleContext;
    expect(policyError(() => p.evaluate(ctx)).message).toBe('autoscaler "as": evaluate() for scaling group decode at 5000000 µs: returned delta 1.5; expected a whole number of replicas');
  });

  it('metrics: finite numbers only', () => {
    const p = guardPolicy('admission', { name: 'a', admit: () => ({ admit: true, reason: '' }), metrics: () => ({ hits: 3, ratio: Number.NaN }) });
    expect(policyError(() => p.metrics!()).message).toBe('admission policy "a": metrics() for the end of the run: returned ratio = NaN; expected finite numbers');
    const ok = guardPolicy('admission', { name: 'a', admit: () => ({ admit: true, reason: '' }), metrics: () => ({ hits: 3 }) });
    expect(ok.metrics!()).toEqual({ hits: 3 });
  });
});

describe('guardPolicy: time budget', () => {
  /** A clock that advances `steps` ms per reading, in turn. */
  const clock = (...steps: number[]) => {
    let t = 0;
    let i = 0;
    return () => (t += steps[i++ % steps.length]);
  };

  it('a call over the budget fails after it returns, naming the time taken', () => {
    const p = guardPolicy('routing', router(() => ({ instance: 0, reason: '' })), { budgetMs: 1000, clock: clock(0, 1834) });
    expect(policyError(() => p.route(r17, state4)).message).toBe('routing policy "x": route() for request 17 ("r17") at 1200 µs: took 1834 ms; the budget per decision is 1000 ms');
  });

  it('calls within it pass, and small overruns show their fraction', () => {
    const within = guardPolicy('routing', router(() => ({ instance: 0, reason: '' })), { budgetMs: 5, clock: clock(0, 5) });
    expect(within.route(r17, state4).instance).toBe(0);
    const over = guardPolicy('routing', router(() => ({ instance: 0, reason: '' })), { budgetMs: 5, clock: clock(0, 50.25) });
    expect(policyError(() => over.route(r17, state4)).problem).toBe('took 50.3 ms; the budget per decision is 5 ms');
  });

  it('without a budget the clock is never read', () => {
    let reads = 0;
    const p = guardPolicy('routing', router(() => ({ instance: 0, reason: '' })), {
      clock: () => {
        reads++;
        return 0;
      },
    });
    p.route(r17, state4);
    expect(reads).toBe(0);
  });
});
