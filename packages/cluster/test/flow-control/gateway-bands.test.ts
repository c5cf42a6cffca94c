import { makeRequestSpec } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { GatewayBands, type Waiting } from '../../src/flow-control/gateway-bands.js';
import { globalStrict, roundRobin } from '../../src/flow-control/flow-fairness.js';
import type { SimRequest } from '@blis/engine';

let seq = 0;
function waiting(index: number, priority: number, tenant = 't', deadlineUs = Number.POSITIVE_INFINITY): Waiting {
  const req = { spec: makeRequestSpec({ index, arrivalUs: 0, inputTokens: 1, outputTokens: 1 }) } as unknown as SimRequest;
  return { req, seq: ++seq, enqueuedUs: 0, priority, tenant, deadlineUs };
}

const bands = (o: Partial<ConstructorParameters<typeof GatewayBands>[0]> = {}) =>
  new GatewayBands({ maxDepth: 0, perBandCapacity: 0, shedding: false, usageLimitThreshold: 1, sloDeadline: false, fairness: globalStrict(), ...o });
const ids = (q: GatewayBands, sat = 0) => {
  const out: number[] = [];
  for (let w = q.dequeue(sat); w !== undefined; w = q.dequeue(sat)) out.push(w.req.spec.index);
  return out;
};

describe('gateway bands', () => {
  it('dispatches the highest band first, arrival order within it', () => {
    const q = bands();
    for (const [i, p] of [[0, -1], [1, 3], [2, 4], [3, 3]] as const) q.enqueue(waiting(i, p));
    expect(ids(q)).toEqual([2, 1, 3, 0]);
  });

  it('holds everything once saturation reaches the top ceiling', () => {
    const q = bands();
    q.enqueue(waiting(0, 3));
    expect(q.dequeue(1)).toBeUndefined();
    expect(q.dequeue(0.99)?.req.spec.index).toBe(0);
  });

  it('usage-limit threshold: lower bands stop earlier, and a blocked band blocks all below it', () => {
    // Three bands: ceilings 1, 0.75, 0.5.
    const q = bands({ usageLimitThreshold: 0.5 });
    q.enqueue(waiting(0, 4));
    q.enqueue(waiting(1, 3));
    q.enqueue(waiting(2, -1));
    expect(q.dequeue(0.8)?.req.spec.index).toBe(0);
    // The top band is empty now but still counts: at 0.8 the second band (0.75) halts the cycle.
    expect(q.dequeue(0.8)).toBeUndefined();
    expect(q.dequeue(0.6)?.req.spec.index).toBe(1);
    expect(q.dequeue(0.6)).toBeUndefined();
    expect(q.dequeue(0.4)?.req.spec.index).toBe(2);
  });

  it('per-band capacity turns a newcomer away from a full band, not from another', () => {
    const q = bands({ perBandCapacity: 1 });
    expect(q.enqueue(waiting(0, 3)).kind).toBe('enqueued');
    expect(q.enqueue(waiting(1, 3))).toEqual({ kind: 'rejected', why: 'band-full' });
    expect(q.enqueue(waiting(2, 4)).kind).toBe('enqueued');
  });

  it('a full queue rejects, or with shedding displaces the least urgent sheddable request for a more urgent one', () => {
    const plain = bands({ maxDepth: 2 });
    plain.enqueue(waiting(0, -1));
    plain.enqueue(waiting(1, -2));
    expect(plain.enqueue(waiting(2, 4))).toEqual({ kind: 'rejected', why: 'queue-full' });
    const shed = bands({ maxDepth: 2, shedding: true });
    shed.enqueue(waiting(0, -1));
    shed.enqueue(waiting(1, -2));
    const out = shed.enqueue(waiting(2, 4));
    expect(out.kind === 'displaced' && out.victim.req.spec.index).toBe(1);
    // A sheddable newcomer never displaces its own band (the victim would be older).
    expect(shed.enqueue(waiting(3, -1)).kind).toBe('rejected');
    // Non-sheddable requests are never displaced.
    const firm = bands({ maxDepth: 1, shedding: true });
    firm.enqueue(waiting(0, 3));
    expect(firm.enqueue(waiting(1, 4)).kind).toBe('rejected');
  });

  it('round-robin takes a band\'s tenants in turn; global-strict the earliest head', () => {
    const load = (q: GatewayBands) => {
      for (const [i, t] of [[0, 'a'], [1, 'a'], [2, 'a'], [3, 'b'], [4, 'b']] as const) q.enqueue(waiting(i, 3, t));
      return q;
    };
    expect(ids(load(bands()))).toEqual([0, 1, 2, 3, 4]);
    expect(ids(load(bands({ fairness: roundRobin() })))).toEqual([0, 3, 1, 4, 2]);
  });

  it('slo-deadline takes a flow\'s earliest deadline, ties to the earlier arrival', () => {
    const q = bands({ sloDeadline: true });
    q.enqueue(waiting(0, 3, 't', 500));
    q.enqueue(waiting(1, 3, 't', 100));
    q.enqueue(waiting(2, 3, 't', 100));
    q.enqueue(waiting(3, 3, 't'));
    expect(ids(q)).toEqual([1, 2, 0, 3]);
  });

  it('take removes a waiting request by index (TTL), once', () => {
    const q = bands();
    q.enqueue(waiting(7, 3));
    expect(q.take(7)?.req.spec.index).toBe(7);
    expect(q.take(7)).toBeUndefined();
    expect(q.length).toBe(0);
  });
});
