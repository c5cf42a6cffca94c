import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyParameter } from '../src/sweep/apply-parameter.js';
import { expandCandidates } from '../src/sweep/candidates.js';
import { gridValues } from '../src/sweep/parameter-values.js';
import { loadSweepSpec } from '../src/sweep/sweep-spec-load.js';
import { planSweep } from '../src/sweep/sweep-plan.js';
import { type SweepSpec, SweepSpecSchema } from '../src/sweep/sweep-spec-schema.js';

const spec = (raw: unknown): SweepSpec => SweepSpecSchema.parse(raw);
const tmp = mkdtempSync(join(tmpdir(), 'blis-sweep-expand-'));

describe('grid expansion', () => {
  it('is the cartesian product, the first parameter slowest', () => {
    const c = expandCandidates(spec({ parameters: { a: [1, 2], b: ['x', 'y', 'z'] } }));
    expect(c.map((x) => x.values)).toEqual([
      { a: 1, b: 'x' },
      { a: 1, b: 'y' },
      { a: 1, b: 'z' },
      { a: 2, b: 'x' },
      { a: 2, b: 'y' },
      { a: 2, b: 'z' },
    ]);
    expect(c.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('expands ranges to their step points, max included, without float drift', () => {
    expect(gridValues({ min: 5, max: 20, step: 5, integer: false })).toEqual([5, 10, 15, 20]);
    expect(gridValues({ min: 0, max: 1, step: 0.1, integer: false })).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(gridValues({ min: 1, max: 10, step: 4, integer: false })).toEqual([1, 5, 9]);
    expect(gridValues({ min: 1, max: 2, integer: false })).toHaveProperty('error');
  });

  it('counts a range before listing it: one past the limit is refused with its count, denormal steps too', () => {
    // [0, 1] by 0.25 is 5 points: a limit of 5 lists them, 4 refuses.
    expect(gridValues({ min: 0, max: 1, step: 0.25, integer: false }, 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(gridValues({ min: 0, max: 1, step: 0.25, integer: false }, 4)).toEqual({ error: 'a range of at most 4 step points (a larger step, or a list of values)', found: '5 step points' });
    expect(() => expandCandidates(spec({ parameters: { r: { min: 1, max: 1e9, step: 0.0001 } } }))).toThrow('parameters.r: expected a range of at most 1000000 step points (a larger step, or a list of values), found 9999999990001 step points');
    expect(() => expandCandidates(spec({ parameters: { r: { min: 1, max: 2, step: 5e-324 } } }))).toThrow('found infinitely many step points');
    expect(() => expandCandidates(spec({ search: { kind: 'random', samples: 2 }, parameters: { r: { min: 1, max: 2, step: 5e-324 } } }))).toThrow('found infinitely many step points');
  });

  it('has one candidate per combination, each distinct (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (axes) => {
        const parameters = Object.fromEntries(axes.map((values, i) => [`p${i}`, values]));
        const c = expandCandidates(spec({ parameters }));
        expect(c.length).toBe(axes.reduce((n, a) => n * a.length, 1));
        expect(new Set(c.map((x) => JSON.stringify(x.values))).size).toBe(c.length);
        for (const x of c) for (const [i, a] of axes.entries()) expect(a).toContain(x.values[`p${i}`]);
      }),
    );
  });
});

describe('random search', () => {
  const raw = { search: { kind: 'random', samples: 8, seed: 7 }, parameters: { a: [1, 2, 3], rate: { min: 5, max: 20 }, n: { min: 2, max: 8, integer: true }, w: { min: 0, max: 1, step: 0.25 } } };

  it('is reproducible from its seed and changes with it', () => {
    const one = expandCandidates(spec(raw));
    expect(expandCandidates(spec(raw))).toEqual(one);
    expect(expandCandidates(spec({ ...raw, search: { kind: 'random', samples: 8, seed: 8 } }))).not.toEqual(one);
    expect(one).toHaveLength(8);
  });

  it('draws inside the ranges: lists and step points exactly, integers whole', () => {
    for (const c of expandCandidates(spec({ ...raw, search: { kind: 'random', samples: 200, seed: 1 } }))) {
      expect([1, 2, 3]).toContain(c.values.a);
      expect(c.values.rate).toBeGreaterThanOrEqual(5);
      expect(c.values.rate).toBeLessThanOrEqual(20);
      expect(Number.isInteger(c.values.n) && (c.values.n as number) >= 2 && (c.values.n as number) <= 8).toBe(true);
      expect([0, 0.25, 0.5, 0.75, 1]).toContain(c.values.w);
    }
  });

  it('draws a step point by its index, without listing the range: 10^9 points cost one draw', () => {
    const fine = spec({ search: { kind: 'random', samples: 50, seed: 3 }, parameters: { r: { min: 0, max: 1, step: 1e-9 } } });
    const drawn = expandCandidates(fine).map((c) => c.values.r as number);
    for (const r of drawn) {
      expect(Math.abs(r / 1e-9 - Math.round(r / 1e-9))).toBeLessThan(1e-3);
      expect(r >= 0 && r <= 1).toBe(true);
    }
    expect(new Set(drawn).size).toBe(50);
  });
});

describe('parameters applied to a config', () => {
  it('sets a scorer weight in the base list, or adds it to BLIS\'s default profile', () => {
    const withList = { routing: { policy: 'weighted', scorers: [{ name: 'queue-depth', weight: 1 }] } };
    expect(applyParameter(withList, 'routing.scorers.queue-depth', 3)).toBeUndefined();
    expect(applyParameter(withList, 'routing.scorers.prefix-affinity', 2)).toBeUndefined();
    expect(withList.routing.scorers).toEqual([
      { name: 'queue-depth', weight: 3 },
      { name: 'prefix-affinity', weight: 2 },
    ]);
    const bare: Record<string, unknown> = { routing: { policy: 'weighted' } };
    applyParameter(bare, 'routing.scorers.queue-depth', 5);
    expect((bare.routing as { scorers: unknown }).scorers).toEqual([
      { name: 'precise-prefix-cache', weight: 2 },
      { name: 'queue-depth', weight: 5 },
      { name: 'kv-utilization', weight: 1 },
    ]);
    expect(applyParameter(bare, 'routing.scorers.no-such-scorer', 1)).toMatch(/a scorer name/);
    expect(applyParameter(bare, 'seed', 1)).toMatch(/seeds:/);
  });

  it('follows dot paths, creating sections, indexing existing list elements', () => {
    const c: Record<string, unknown> = { workload: { kind: 'synthetic', rate: 1 } };
    applyParameter(c, 'workload.rate', 7);
    applyParameter(c, 'flowControl.enabled', true);
    expect(c).toEqual({ workload: { kind: 'synthetic', rate: 7 }, flowControl: { enabled: true } });
    const s: Record<string, unknown> = { routing: { scorers: [{ name: 'queue-depth', weight: 1 }] } };
    expect(applyParameter(s, 'routing.scorers.5.weight', 1)).toBeDefined();
  });

  it('takes a list position as .0 or [0], and names paths in messages with [n]', () => {
    const c: Record<string, unknown> = { nodePools: [{ name: 'a', maxNodes: 1 }, { name: 'b', maxNodes: 1 }] };
    expect(applyParameter(c, 'nodePools[1].maxNodes', 3)).toBeUndefined();
    expect(applyParameter(c, 'nodePools.0.maxNodes', 2)).toBeUndefined();
    expect((c.nodePools as { maxNodes: number }[]).map((p) => p.maxNodes)).toEqual([2, 3]);
    expect(applyParameter(c, 'nodePools[5].maxNodes', 1)).toBe('an existing element 5 of nodePools (the list has 2)');
    expect(applyParameter(c, 'nodePools[0].name.x', 1)).toBe('nodePools[0].name to be a section, found "a"');
  });

  it('overrides a spec workload\'s aggregate_rate inline, its empirical files re-anchored', () => {
    const dir = mkdtempSync(join(tmp, 'wl-'));
    writeFileSync(join(dir, 'lens.csv'), 'len\n100\n200\n');
    writeFileSync(
      join(dir, 'w.yaml'),
      'version: "2"\naggregate_rate: 10\nnum_requests: 50\nclients:\n  - id: a\n    rate_fraction: 1\n    input_distribution: {type: empirical, params: {file: lens.csv}}\n    output_distribution: {type: constant, params: {value: 8}}\n',
    );
    writeFileSync(
      join(dir, 'sweep.yaml'),
      'base:\n  latencyModel: blackbox\n  workload: {kind: spec, path: w.yaml}\nparameters:\n  workload.aggregate_rate: [5, 40]\nmetrics: [responses_per_sec]\n',
    );
    const plan = planSweep(loadSweepSpec(join(dir, 'sweep.yaml')));
    expect(plan.tasks).toHaveLength(2);
    const specs = plan.tasks.map((t) => (t.config.workload as { spec: { aggregate_rate: number; clients: { input_distribution: { params: { file: string } } }[] } }).spec);
    expect(specs.map((s) => s.aggregate_rate)).toEqual([5, 40]);
    expect(resolve(specs[0].clients[0].input_distribution.params.file)).toBe(join(dir, 'lens.csv'));
    // The seed reaches the spec workload too, so each seed draws its own arrivals.
    expect(plan.tasks.map((t) => [t.seed, (t.config.workload as { seed: number }).seed])).toEqual([
      [42, 42],
      [42, 42],
    ]);
  });
});
