import { setFlagsFromString } from 'node:v8';
import { SimRequest } from '@blis/engine';
import { InstanceMetrics } from '@blis/engine/internal';
import { describe, expect, it } from 'vitest';
import type { ClusterSimulator } from '../src/cluster-simulator.js';
import { ParentRequest } from '../src/pd/parent-request.js';
import { TimeSeriesRecorder } from '../src/timeseries/timeseries-recorder.js';
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

  // Objects a short run does not reach or cannot hand out: each class's time fields given times
  // past 2^31 µs on one of two fresh objects, which must keep the other's hidden class.
  const keepsLayout = <T extends object>(make: () => T, fields: readonly string[]): boolean => {
    const a = make();
    const b = make();
    for (const f of fields) (b as Record<string, unknown>)[f] = LATE;
    return haveSameMap(a, b);
  };

  it("a P/D parent's times, an instance's busy time and the time series' next sample", () => {
    const parent = () => new ParentRequest(new SimRequest(spec(0, 0, 64, 4), 0), 1, 16);
    expect(keepsLayout(parent, ['prefillEnqueueUs', 'prefillCompleteUs', 'transferStartUs', 'transferCompleteUs', 'decodeEnqueueUs', 'completionUs'])).toBe(true);
    expect(keepsLayout(() => new InstanceMetrics(), ['busyUs', 'kvBlockUs'])).toBe(true);
    const host = { instances: [], hasGateway: false, gatewayLength: 0, fleet: undefined, pd: undefined };
    expect(keepsLayout(() => new TimeSeriesRecorder(1_000_000, 100, host), ['nextUs'])).toBe(true);
  });
});
