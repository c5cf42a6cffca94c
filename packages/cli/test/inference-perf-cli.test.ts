import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// BLIS's `inference_perf:` workload specs through the `blis` process: BLIS's own example runs
// unchanged, output is byte-identical for a seed and moves with it, a converted spec replays to
// the same result, and the multi-turn form runs its closed loop. The library-level generator
// tests live in packages/workload/test/inference-perf; BLIS's golden experiments, which pin the
// generator against BLIS's own numbers, in golden/blis-golden-experiments.test.ts.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const EXAMPLE = join(ROOT, 'examples', 'workloads', 'inference-perf-shared-prefix.yaml');
const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const tmp = mkdtempSync(join(tmpdir(), 'blis-inference-perf-'));

function blis(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).not.toMatch(/internal error/);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MULTI_TURN = join(tmp, 'chat.yaml');
writeFileSync(
  MULTI_TURN,
  `version: "2"
seed: 7
inference_perf:
  stages: [{rate: 4, duration: 60}]
  shared_prefix:
    num_unique_system_prompts: 3
    num_users_per_system_prompt: 4
    system_prompt_len: 200
    question_len: 150
    output_len: 60
    enable_multi_turn_chat: true
`,
);

describe('blis run with an inference_perf spec', () => {
  it("runs BLIS's example unchanged: 90 Poisson clients over two 600 s stages of 8 and 20 req/s", () => {
    const r = blis('run', ...MODEL, '--num-instances', '4', '--routing-policy', 'weighted', '--workload-spec', EXAMPLE, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res.completed_requests).toBe(res.injected_requests);
    // 16,800 expected arrivals (8 × 600 + 20 × 600); a Poisson count is within 5 SDs (√16,800 ≈ 130).
    expect(Math.abs(res.injected_requests - 16_800)).toBeLessThan(5 * 130);
    // Every prompt is 100 shared tokens then 447 of its own; every answer 248 tokens.
    expect(res.total_input_tokens).toBe(res.injected_requests * 547);
    expect(res.total_output_tokens).toBe(res.injected_requests * 248);
    // 6 of the 34 blocks of each prompt are the group's shared system prompt.
    expect(res.cache_hit_rate).toBeGreaterThan(0.1);
  });

  it('prints the same bytes for the same seed, and other results for another seed', () => {
    const a = blis('run', ...MODEL, '--workload-spec', MULTI_TURN);
    const b = blis('run', ...MODEL, '--workload-spec', MULTI_TURN);
    const c = blis('run', ...MODEL, '--workload-spec', MULTI_TURN, '--seed', '8');
    expect(a.code, a.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).not.toBe(a.stdout);
  });

  it('runs multi-turn chat as closed-loop sessions: 12 sessions share the 240 requests evenly', () => {
    const r = blis('run', ...MODEL, '--workload-spec', MULTI_TURN, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    // rate × duration = 240 requests over 3 × 4 = 12 sessions of 20 rounds each.
    expect(res.completed_requests).toBe(240);
    expect(res.sessions).toMatchObject({ sessions: 12, rounds_completed: 240 });
  });

  it('converts to a TraceV2 pair that replays to the same result', () => {
    const spec = join(tmp, 'language.yaml');
    writeFileSync(spec, readFileSync(EXAMPLE, 'utf8').replace('duration: 600', 'duration: 20').replace('duration: 600', 'duration: 10'));
    const stem = join(tmp, 'converted');
    const conv = blis('convert', '--workload-spec', spec, '--output', stem);
    expect(conv.code, conv.stderr).toBe(0);
    const run = blis('run', ...MODEL, '--workload-spec', spec, '--quiet', '--results-path', `${stem}-run.json`);
    const replay = blis('replay', ...MODEL, '--trace-header', `${stem}.yaml`, '--trace-data', `${stem}.csv`, '--quiet', '--results-path', `${stem}-replay.json`);
    expect(run.code, run.stderr).toBe(0);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toBe(run.stdout);
    expect(readFileSync(`${stem}-replay.json`, 'utf8')).toBe(readFileSync(`${stem}-run.json`, 'utf8'));
  });

  it('is swept by editing the section, and blis capacity scales every stage rate', () => {
    const spec = join(tmp, 'sweep-base.yaml');
    writeFileSync(spec, readFileSync(MULTI_TURN, 'utf8').replace('enable_multi_turn_chat: true', 'enable_multi_turn_chat: false'));
    const sweep = join(tmp, 'sweep.yaml');
    writeFileSync(
      sweep,
      `base: {numInstances: 1, model: meta-llama/llama-3.1-8b-instruct, workload: {kind: spec, path: ${spec}}}
seeds: [42]
search: {kind: grid}
parameters:
  workload.spec.inference_perf.stages.0.rate: [2, 4]
metrics: [completed_requests]
`,
    );
    const out = join(tmp, 'sweep.csv');
    const r = blis('sweep', sweep, '--output', out);
    expect(r.code, r.stderr).toBe(0);
    // One stage of 60 s: exactly rate × 60 requests.
    expect(readFileSync(out, 'utf8').trim().split('\n').slice(1)).toEqual(['0,42,2,120', '1,42,4,240']);
    const cap = blis('capacity', ...MODEL, '--workload-spec', spec, '--target', 'ttft_p99=10s', '--max-rate', '2');
    expect(cap.code, cap.stderr).toBe(0);
    expect(JSON.parse(cap.stdout)).toMatchObject({ unit: 'x', varies: 'every inference_perf stage rate' });
  });
});
