import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, SOURCE } from './blis-process.js';

// A candidate's code runs in a thread of its own (EvaluateSandbox): process.exit and stray
// stdout writes cannot end the evaluator or corrupt its answers, one-shot or in --serve, which
// goes on with the next request as if nothing had happened.

function evaluateCli(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@blis/source', '--import', 'tsx', SOURCE, 'evaluate', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

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
});
