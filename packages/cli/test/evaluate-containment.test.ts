import { describe, expect, it } from 'vitest';
import { evaluateCli } from './blis-process.js';

// A candidate's code runs in a thread of its own (EvaluateSandbox): process.exit and stray
// stdout writes cannot end the evaluator or corrupt its answers, one-shot or in --serve, which
// goes on with the next request as if nothing had happened.

const module = (route: string) => `export default () => ({ name: 'r', route(req) { ${route} } });`;
const request = (text: string, id = 's') =>
  JSON.stringify({
    protocol: 'blis-eval/1',
    candidate: { kind: 'policy-module', language: 'javascript', text },
    base_config: { numInstances: 2 },
    scenarios: [{ id, workload: { kind: 'synthetic', numRequests: 30, rate: 5 }, seeds: [7] }],
    objectives: { weights: { p99_ttft: 1 } },
    trace: 'none',
  });
const FIRST = module("return { instance: 0, reason: 'first' };");
const EXIT = module("if (req.id === '2') process.exit(3); return { instance: 0, reason: 'x' };");
const HOARDS = module("if (req.id === '2') { const a = []; for (;;) a.push(new Array(1e5).fill(req.id)); } return { instance: 0, reason: 'x' };");
const PRINTS = module("console.log('routing', req.id); return { instance: 0, reason: 'first' };");

describe('blis evaluate: candidate code that would take the evaluator down', () => {
  it('process.exit(3) is answered invalid_candidate, one-shot (exit 0) and in --serve, which goes on', async () => {
    const one = await evaluateCli([], request(EXIT));
    expect(one.code, one.stderr).toBe(0);
    const r = JSON.parse(one.stdout);
    expect(r).toMatchObject({ status: 'invalid_candidate', combined_score: 0 });
    expect(r.error.issues).toEqual([{ where: 'candidate', expected: 'code that returns its decisions and leaves the evaluation running', found: 'ended the evaluation (process.exit(3))' }]);
    const served = await evaluateCli(['--serve'], `${request(FIRST, 'a')}\n${request(EXIT, 'b')}\n${request(FIRST, 'a')}\n`);
    expect(served.code, served.stderr).toBe(0);
    const lines = served.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).status)).toEqual(['ok', 'invalid_candidate', 'ok']);
    // The thread that replaced the ended one answers as the first did.
    expect(lines[2]).toBe(lines[0]);
  });

  it("what the candidate writes to stdout goes to stderr: stdout holds the answers alone, the same bytes as a silent candidate's", async () => {
    const silent = await evaluateCli([], request(FIRST));
    const loud = await evaluateCli(['--serve'], `${request(PRINTS)}\n${request(PRINTS)}\n`);
    expect(loud.code, loud.stderr).toBe(0);
    const lines = loud.stdout.trimEnd().split('\n');
    expect(lines).toEqual([silent.stdout.trimEnd(), silent.stdout.trimEnd()]);
    expect(loud.stderr).toContain('routing 0\n');
    expect(loud.stderr.match(/^routing \d+$/gm)).toHaveLength(60);
  });

  it('a candidate that allocates without bound is answered invalid_candidate at the sandbox heap, one-shot and in --serve, which goes on', async () => {
    const small = { BLIS_EVAL_SANDBOX_HEAP_MB: '64' };
    const one = await evaluateCli([], request(HOARDS), small);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).error.issues[0].found).toBe("ran out of the evaluation's heap (64 MiB): it allocates without bound");
    const served = await evaluateCli(['--serve'], `${request(HOARDS, 'h')}\n${request(FIRST, 'a')}\n`, small);
    expect(served.code, served.stderr).toBe(0);
    expect(served.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).status)).toEqual(['invalid_candidate', 'ok']);
    const bad = await evaluateCli([], request(FIRST), { BLIS_EVAL_SANDBOX_HEAP_MB: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('blis: BLIS_EVAL_SANDBOX_HEAP_MB: expected a whole number of MiB, at least 16, found "lots"\n');
  });
});
