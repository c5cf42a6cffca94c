import { setFlagsFromString } from 'node:v8';
import type { SimRequest } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import type { ClusterSimulator } from '../src/cluster-simulator.js';
import { buildCluster, spec } from './helpers.js';

// V8 keeps a number field as a small integer until it first holds something else. Times are
// integers of microseconds, so a field that starts at 0 or -1 changes to a double the first time
// the clock passes 2^31 µs (35.8 simulated minutes), and the change throws away the optimised
// code of every function that read an object of that class: a run past that point deoptimised
// some thirty functions mid-run. The engine's time fields therefore start as doubles, and these
// tests hold it to that: objects of a run that stays below 2^31 µs and of one that passes it
// have the same hidden classes.
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);') as (a: object, b: object) => boolean;

const LATE = 2 ** 31 + 1_000_000;

interface Ran {
  sim: ClusterSimulator;
  request: SimRequest;
}

function run(startUs: number): Ran {
  const specs = Array.from({ length: 24 }, (_, i) => spec(i, startUs + i * 250_000, 200 + 40 * i, 30 + (i % 7)));
  let request: SimRequest | undefined;
  const sim = buildCluster(specs, {
    instances: 2,
    routing: 'weighted',
    setup: { snapshotRefreshIntervalUs: 50_000, observer: { onCompleted: (r) => (request = r as SimRequest) } },
  });
  sim.run();
  if (request === undefined) throw new Error('no request completed');
  return { sim, request };
}

describe('hidden classes when the clock passes 2^31 µs', () => {
  it('the natives check tells different layouts apart', () => {
    class Tick {
      t = 0;
    }
    const a = new Tick();
    const b = new Tick();
    expect(haveSameMap(a, b)).toBe(true);
    b.t = LATE;
    expect(haveSameMap(a, b)).toBe(false);
  });

  it('a run that ends before 2^31 µs and one that starts after it share every layout', () => {
    const early = run(0);
    const late = run(LATE);
    expect(late.sim.endUs).toBeGreaterThan(2 ** 31);
    expect(early.sim.endUs).toBeLessThan(2 ** 31);
    expect(haveSameMap(early.request, late.request)).toBe(true);
    expect(haveSameMap(early.sim, late.sim)).toBe(true);
    expect(haveSameMap(early.sim.state, late.sim.state)).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect(haveSameMap(early.sim.instances[i], late.sim.instances[i])).toBe(true);
      expect(haveSameMap(early.sim.state.instances[i], late.sim.state.instances[i])).toBe(true);
    }
  });
});
