import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';

// Candidate code that never returns (LLM-written candidates loop like this) is stopped at the
// request's max_wall_ms wherever it is stuck, answered `timeout` with where, and the process
// goes on: the next evaluation in it answers as if nothing had happened.

const request = (text: string, maxWallMs: number) => ({
  protocol: 'blis-eval/1',
  candidate: { kind: 'policy-module', language: 'javascript', text },
  base_config: { numInstances: 2 },
  scenarios: [{ id: 'only', workload: { kind: 'synthetic', numRequests: 40, rate: 5 }, seeds: [3] }],
  objectives: { weights: { p99_ttft: 1 } },
  trace: 'none',
  max_wall_ms: maxWallMs,
});

const ROUTER = (route: string, top = '', factory = '') =>
  `${top}\nexport default function make(ctx) { ${factory}\n return { name: 'r', route(req, state) { ${route} } }; }`;
const FIRST = ROUTER("return { instance: 0, reason: 'first' };");
const SPIN_ON_THIRD = ROUTER("if (req.id === '2') { for (;;) {} } return { instance: 0, reason: 'first' };");

describe('evaluate: a candidate that never returns', () => {
  it('route() stuck on the third request: timeout naming the call, within the budget', async () => {
    const t0 = Date.now();
    const r = await evaluate(request(SPIN_ON_THIRD, 400));
    // Bounded by the budget, not by the candidate (which would run forever): a hang bound, not a speed test.
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.status).toBe('timeout');
    expect(r.combined_score).toBe(0);
    expect(r.error?.message).toMatch(/^the wall-clock budget of 400 ms was spent after 0 of 1 scenario\(s\); stopped in routing policy "r" \(candidate\.mjs\): route\(\) for request 2 \("2"\) at \d+ µs: had not returned when the budget ran out$/);
    expect(r.error?.issues).toEqual([{ where: expect.stringMatching(/^candidate\.mjs route\(\) for request 2 \("2"\) at \d+ µs$/), expected: 'a decision within the wall-clock budget', found: 'it had not returned when the budget ran out' }]);
  });

  it('a module whose top-level code never ends, and a factory that never returns', async () => {
    const top = await evaluate(request(ROUTER("return { instance: 0, reason: 'x' };", 'while (true) {}'), 300));
    expect(top.status).toBe('timeout');
    expect(top.error?.message).toMatch(/stopped in the candidate's top-level code or factory$/);
    // The probe build at load time passes; the run's own build spins.
    const factory = await evaluate(request(ROUTER("return { instance: 0, reason: 'x' };", 'let built = 0;', 'if (++built > 1) while (true) {}'), 300));
    expect(factory.status).toBe('timeout');
    expect(factory.error?.message).toMatch(/stopped in scenario "only"$/);
  });

  it('the next evaluation in the same process answers as a fresh process would', async () => {
    const before = await evaluate(request(FIRST, 60_000));
    await evaluate(request(SPIN_ON_THIRD, 200));
    const after = await evaluate(request(FIRST, 60_000));
    expect(before.status).toBe('ok');
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('top-level await is refused in our words (candidate modules load synchronously)', async () => {
    const r = await evaluate(request(`await Promise.resolve();\n${FIRST}`, 60_000));
    expect(r.status).toBe('invalid_candidate');
    expect(r.error?.issues).toEqual([{ where: 'candidate.mjs:1:1', expected: "a module without top-level await (candidate modules load synchronously, within the request's budget)", found: 'a top-level await' }]);
  });
});
