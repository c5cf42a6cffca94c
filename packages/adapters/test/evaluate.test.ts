import { describe, expect, it } from 'vitest';
import { EvalRequestError, EvalResponseSchema, evaluate } from '../src/index.js';
import { scoreObjectives } from '../src/internal.js';

const scenario = (id: string, seeds = [1], numRequests = 60) => ({ id, workload: { kind: 'synthetic', numRequests, rate: 8, promptTokens: 256, outputTokens: 64 }, seeds });
const request = (candidate: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  protocol: 'blis-eval/1',
  candidate,
  base_config: { numInstances: 3 },
  scenarios: [scenario('small')],
  objectives: { weights: { p99_ttft: 1, throughput: 1 } },
  trace: 'none',
  ...extra,
});

const ROUND_ROBIN_YAML = 'routing:\n  policy: round-robin\n';
const BUSIEST_YAML = 'routing:\n  policy: always-busiest\n';

describe('scoreObjectives (the reference normalisation, by hand)', () => {
  it('maps 1 ms to 0.5, 100 req/s to 0.5, and takes the weighted mean', () => {
    const s = scoreObjectives({ p99_ttft: 3, throughput: 1 }, { p99_ttft_us: 1000, throughput_rps: 300 });
    expect(s.objectiveScores.p99_ttft).toBeCloseTo(0.5, 12);
    expect(s.objectiveScores.throughput).toBeCloseTo(0.75, 12); // 300 / (300 + 100)
    expect(s.score).toBeCloseTo((3 * 0.5 + 1 * 0.75) / 4, 12);
  });
  it('maps cost to 1/(1 + USD) and replica time to 1/(1 + hours)', () => {
    const s = scoreObjectives({ cost_usd: 1, replica_seconds: 1 }, { cost_usd: 3, replica_seconds: 7200 });
    expect(s.objectiveScores.cost_usd).toBeCloseTo(0.25, 12);
    expect(s.objectiveScores.replica_seconds).toBeCloseTo(1 / 3, 12);
  });
});

describe('evaluate: answers', () => {
  it('answers a baseline with a schema-valid response, the same bytes twice', async () => {
    const a = await evaluate(request({ kind: 'baseline' }));
    const b = await evaluate(request({ kind: 'baseline' }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(EvalResponseSchema.safeParse(a).success).toBe(true);
    expect(a.status).toBe('ok');
    expect(a.combined_score).toBeGreaterThan(0);
    expect(a.combined_score).toBeLessThan(1);
    expect(a.per_scenario[0].metrics.completed_requests).toBe(60);
    // The combined score of one scenario is its score, which is the objectives' weighted mean.
    const o = a.per_scenario[0].objective_scores;
    expect(a.combined_score).toBeCloseTo((o.p99_ttft + o.throughput) / 2, 12);
    expect(o.p99_ttft).toBeCloseTo(1 / (1 + a.per_scenario[0].metrics.p99_ttft_us / 1000), 12);
  });

  it('a policy changes the result, and a bad policy scores worse than a balanced one', async () => {
    const rr = await evaluate(request({ kind: 'policy-yaml', text: ROUND_ROBIN_YAML }, { scenarios: [scenario('small', [1], 200)] }));
    const busy = await evaluate(request({ kind: 'policy-yaml', text: BUSIEST_YAML }, { scenarios: [scenario('small', [1], 200)] }));
    expect(rr.status).toBe('ok');
    expect(busy.status).toBe('ok');
    expect(busy.metrics.p99_e2e_us).toBeGreaterThan(rr.metrics.p99_e2e_us);
    expect(busy.combined_score).toBeLessThan(rr.combined_score);
  });

  it('reports the mean over seeds, and weights scenarios in combined_score', async () => {
    const one = await evaluate(request({ kind: 'baseline' }, { scenarios: [scenario('s', [1])] }));
    const two = await evaluate(request({ kind: 'baseline' }, { scenarios: [scenario('s', [2])] }));
    const both = await evaluate(request({ kind: 'baseline' }, { scenarios: [scenario('s', [1, 2])] }));
    expect(both.metrics.p99_ttft_us).toBeCloseTo((one.metrics.p99_ttft_us + two.metrics.p99_ttft_us) / 2, 9);
    const weighted = await evaluate(request({ kind: 'baseline' }, { scenarios: [{ ...scenario('a', [1]), weight: 3 }, scenario('b', [2])] }));
    expect(weighted.combined_score).toBeCloseTo((3 * one.combined_score + two.combined_score) / 4, 12);
  });

  it('gives feedback text within budget, and a trace summary when traced', async () => {
    const r = await evaluate(request({ kind: 'baseline' }, { trace: 'summary', scenarios: [scenario('small', [1], 120)] }));
    const f = r.per_scenario[0].feedback;
    expect(f).toMatch(/TTFT p99 [\d.]+ ms/);
    expect(f).toMatch(/Decision trace:/);
    expect(f.length / 4).toBeLessThanOrEqual(1500);
    expect(Object.keys(r.per_scenario[0].trace_summary)).toEqual(['anomalies']);
    const d = await evaluate(request({ kind: 'baseline' }, { trace: 'decisions', scenarios: [scenario('small', [1], 120)] }));
    expect((d.per_scenario[0].trace_summary.anomalies as Record<string, { count: number }>).hol_blocking).toHaveProperty('examples');
  });

  it('answers timeout when the wall-clock budget is spent', async () => {
    let t = 0;
    const r = await evaluate(request({ kind: 'baseline' }, { max_wall_ms: 5, scenarios: [scenario('a'), scenario('b')] }), { now: () => (t += 3) });
    expect(r.status).toBe('timeout');
    expect(r.combined_score).toBe(0);
    expect(EvalResponseSchema.safeParse(r).success).toBe(true);
  });
});

const MODULE_OK = `
import type { PolicyFactoryContext, RoutingPolicy } from '@blis/policies';
export default (ctx: PolicyFactoryContext): RoutingPolicy => ({
  name: 'first-free',
  route(req, state) {
    let best = 0;
    for (let i = 1; i < state.instances.length; i++) if (state.instances[i].inFlightRequests < state.instances[best].inFlightRequests) best = i;
    return { instance: best, reason: 'fewest in flight' };
  },
});
`;

describe('evaluate: policy modules', () => {
  it('compiles a TypeScript routing module that imports @blis/policies types, and finds its kind', async () => {
    const r = await evaluate(request({ kind: 'policy-module', text: MODULE_OK }));
    expect(r.status).toBe('ok');
    expect(r.metrics.completed_requests).toBe(60);
  });
});

describe('evaluate: invalid candidates are answers', () => {
  const invalid = async (candidate: Record<string, unknown>) => {
    const r = await evaluate(request(candidate));
    expect(EvalResponseSchema.safeParse(r).success).toBe(true);
    expect(r.status).toBe('invalid_candidate');
    expect(r.combined_score).toBe(0);
    expect(r.per_scenario.map((s) => s.score)).toEqual([0]);
    return r.error!;
  };

  it('YAML syntax, located by line', async () => {
    const e = await invalid({ kind: 'policy-yaml', text: 'routing:\n  policy: weighted\n  scorers: [a, \n' });
    expect(e.issues[0].where).toMatch(/^candidate\.yaml:\d+$/);
    expect(e.issues[0].expected).toMatch(/^valid YAML/);
  });

  it('an unknown policy, located by line and path', async () => {
    const e = await invalid({ kind: 'policy-yaml', text: 'admission:\n  policy: always-admit\nrouting:\n  policy: teleport\n' });
    expect(e.issues[0].where).toMatch(/^candidate\.yaml:4 routing\.policy/);
    expect(e.issues[0].found).toMatch(/teleport/);
  });

  it('a component section with an unknown scorer', async () => {
    const e = await invalid({ kind: 'components', components: { routing: 'policy: weighted\nscorers:\n  - name: nope\n    weight: 1\n' } });
    expect(e.issues[0].where).toMatch(/^components\.routing:3 /);
  });

  it('a module that does not compile, located by line and column', async () => {
    const e = await invalid({ kind: 'policy-module', text: 'export default (ctx) => {\n  return {;\n};\n' });
    expect(e.issues[0].where).toMatch(/^candidate\.ts:2:\d+$/);
  });

  it('a module that throws when loaded, or whose factory throws, or without a default export', async () => {
    expect((await invalid({ kind: 'policy-module', text: 'throw new Error("boom at load");' })).issues[0].found).toMatch(/boom at load/);
    expect((await invalid({ kind: 'policy-module', text: 'export default () => { throw new Error("boom in factory"); };' })).issues[0].found).toMatch(/boom in factory/);
    expect((await invalid({ kind: 'policy-module', text: 'export const x = 1;' })).issues[0].found).toBe('no default export');
    expect((await invalid({ kind: 'policy-module', text: 'export default () => ({ name: "x" });' })).issues[0].where).toMatch(/policy$/);
  });

  it('a module whose method throws during the run, or decides out of range', async () => {
    const throws = 'export default () => ({ name: "t", route() { throw new Error("boom in route"); } });';
    const threw = await invalid({ kind: 'policy-module', text: throws });
    expect(threw.issues[0]).toEqual({ where: expect.stringMatching(/^candidate\.ts route\(\) for request 0 \("0"\) at \d+ µs$/), expected: 'a method that returns', found: 'threw: boom in route' });
    expect(threw.message).toMatch(/^routing policy "t" \(candidate\.ts\): route\(\) for request 0 \("0"\) at \d+ µs: threw: boom in route$/);
    const outOfRange = 'export default () => ({ name: "o", route() { return { instance: 99, reason: "" }; } });';
    const off = await invalid({ kind: 'policy-module', text: outOfRange });
    expect(off.message).toMatch(/: route\(\) for request 0 \("0"\) at \d+ µs: returned instance 99; expected 0\.\.\d+$/);
    expect(off.issues[0].expected).toBe('a decision within the policy contract');
  });
});

describe('evaluate: malformed requests are the caller\'s error', () => {
  const refused = async (req: unknown) => {
    const e = await evaluate(req).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(EvalRequestError);
    return (e as EvalRequestError).issues;
  };
  it('names the field', async () => {
    expect((await refused({ ...request({ kind: 'baseline' }), protocol: 'blis-eval/0' }))[0].where).toBe('request.protocol');
    expect((await refused(request({ kind: 'baseline' }, { objectives: { weights: { speed: 1 } } })))[0].where).toBe('request.objectives.weights.speed');
    expect((await refused(request({ kind: 'baseline' }, { scenarios: [scenario('x'), scenario('x')] })))[0].where).toBe('request.scenarios[1].id');
    expect((await refused(request({ kind: 'baseline' }, { base_config: { numInstances: 0 } })))[0].where).toMatch(/^request\.scenarios\[0\].*\.numInstances$/);
    expect((await refused(request({ kind: 'teleport' })))[0].where).toMatch(/^request\.candidate/);
  });
  it('a base configuration the simulator refuses is the request\'s fault, not the candidate\'s', async () => {
    const issues = await refused(request({ kind: 'policy-yaml', text: ROUND_ROBIN_YAML }, { base_config: { numInstances: 2, model: 'no/such-model' } }));
    expect(issues[0].where).toMatch(/^request\.scenarios\[0\]/);
  });
});

describe('docs/evaluate.md', () => {
  it('documents every objective', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../docs/evaluate.md', import.meta.url), 'utf8');
    const { OBJECTIVE_NAMES } = await import('../src/internal.js');
    for (const name of OBJECTIVE_NAMES) expect(doc, name).toContain(`\`${name}\``);
  });
});

describe('evaluate: decision-tree components', () => {
  const tree = (leaf: string) => `tree:\n  if: {signal: request.input_tokens, op: ">", value: 200}\n  then: {route: least, by: instance.queue_depth}\n  else: ${leaf}\n`;

  it('runs a routing tree given without its kind, and a tree changes the result', async () => {
    const least = await evaluate(request({ kind: 'components', components: { routing: tree('{route: least, by: instance.load}') } }, { scenarios: [scenario('s', [1], 200)] }));
    const most = await evaluate(request({ kind: 'components', components: { routing: tree('{route: most, by: instance.load}') } }, { scenarios: [scenario('s', [1], 200)] }));
    expect(least.status).toBe('ok');
    expect(most.status).toBe('ok');
    expect(most.metrics.p99_e2e_us).not.toBe(least.metrics.p99_e2e_us);
    expect(least.combined_score).toBeGreaterThan(most.combined_score);
  });

  it('answers a tree with an unknown signal as an invalid candidate, located at its line', async () => {
    const bad = tree('{route: least, by: instance.load}').replace('request.input_tokens', 'request.output_tokens');
    const r = await evaluate(request({ kind: 'components', components: { routing: bad } }));
    expect(r.status).toBe('invalid_candidate');
    expect(r.error!.issues[0].where).toBe('components.routing:2 tree.if.signal');
    expect(r.error!.issues[0].found).toBe('"request.output_tokens"');
  });

  it('refuses a tree of another kind under a component', async () => {
    const r = await evaluate(request({ kind: 'components', components: { routing: `kind: admission\ntree: {admit: true}\n` } }));
    expect(r.status).toBe('invalid_candidate');
    expect(r.error!.issues[0].where).toMatch(/^components\.routing:1 kind/);
  });
});
