import { parseWorkloadSpecText, WorkloadSpecError } from '@blis/workload';
import { describe, expect, it } from 'vitest';

// An inference_perf spec is refused, as BLIS refuses it, with the field and its line in the
// message (`<file>:<line> <field>: expected …, found …`). A field's line is that of its value
// (a list's first item, as for every spec error); a missing field's is its parent mapping's.

const FILE = 'ip.yaml';

const stage = (rate: string, duration: string) => `    - rate: ${rate}\n      duration: ${duration}\n`;
const sharedPrefix = (lines: Record<string, string | number | boolean> = {}) =>
  `  shared_prefix:\n${Object.entries({ num_unique_system_prompts: 2, num_users_per_system_prompt: 2, system_prompt_len: 10, question_len: 20, output_len: 5, ...lines })
    .map(([k, v]) => `    ${k}: ${v}\n`)
    .join('')}`;
/** Line 1 version, 2 seed, 3 inference_perf, 4 stages, 5 the first stage's rate, 6 its duration. */
const doc = (stages = stage('1', '10'), shared = sharedPrefix()) => `version: 2\nseed: 3\ninference_perf:\n  stages:\n${stages}${shared}`;

/** The spec's error message; fails unless it is a WorkloadSpecError. */
function refusal(text: string): string {
  try {
    parseWorkloadSpecText(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(WorkloadSpecError);
    return (e as Error).message;
  }
  throw new Error(`accepted:\n${text}`);
}

describe('inference_perf spec validation', () => {
  it('accepts the base document', () => {
    expect(parseWorkloadSpecText(doc(), FILE).inferencePerf?.plan.clients).toHaveLength(4);
  });

  it('refuses clients beside inference_perf, at the clients line', () => {
    const text = `version: 2\nseed: 3\nclients:\n  - id: a\n    rate_fraction: 1\ninference_perf:\n  stages:\n${stage('1', '10')}${sharedPrefix()}`;
    expect(refusal(text)).toMatch(/^ip\.yaml:4 clients: expected either clients or inference_perf .*, found both$/);
  });

  it.each([
    ['duration: 0', stage('1', '0'), 6, 'inference_perf.stages[0].duration', 'a number > 0, found 0'],
    ['a fractional duration', stage('1', '2.5'), 6, 'inference_perf.stages[0].duration', 'an integer, found 2.5'],
    ['rate: -1', stage('-1', '10'), 5, 'inference_perf.stages[0].rate', 'a number > 0, found -1'],
    ['rate: .nan', stage('.nan', '10'), 5, 'inference_perf.stages[0].rate', 'a finite number, found .nan'],
    ['rate: .inf', stage('.inf', '10'), 5, 'inference_perf.stages[0].rate', 'a finite number, found .inf'],
    ['a second stage\'s rate: 0', stage('1', '10') + stage('0', '10'), 7, 'inference_perf.stages[1].rate', 'a number > 0, found 0'],
  ])('refuses a stage with %s', (_name, stages, line, field, tail) => {
    expect(refusal(doc(stages))).toBe(`${FILE}:${line} ${field}: expected ${tail}`);
  });

  it('refuses no stages at all', () => {
    const text = doc().replace(/ {2}stages:\n(.*\n){2}/, '  stages: []\n');
    expect(refusal(text)).toBe(`${FILE}:4 inference_perf.stages: expected a list with >= 1 item(s), found []`);
    expect(refusal(doc(''))).toBe(`${FILE}:4 inference_perf.stages: expected a list, found null`);
  });

  it('refuses num_unique_system_prompts: 0 at its line', () => {
    expect(refusal(doc(stage('1', '10'), sharedPrefix({ num_unique_system_prompts: 0 })))).toBe(
      `${FILE}:8 inference_perf.shared_prefix.num_unique_system_prompts: expected a number > 0, found 0`,
    );
  });

  it('refuses a negative length', () => {
    expect(refusal(doc(stage('1', '10'), sharedPrefix({ question_len: -1 })))).toMatch(/^ip\.yaml:11 inference_perf\.shared_prefix\.question_len: expected /);
  });

  it('refuses a missing shared_prefix, at the section\'s first line', () => {
    expect(refusal(doc(stage('1', '10'), ''))).toBe(`${FILE}:4 inference_perf.shared_prefix: expected a mapping, found nothing (the field is missing)`);
  });

  it('refuses an unknown key inside shared_prefix, naming it at its line', () => {
    expect(refusal(doc(stage('1', '10'), sharedPrefix({ system_prompt: 'hello' })))).toBe(
      `${FILE}:13 inference_perf.shared_prefix.system_prompt: expected a known field, found unknown field "system_prompt"`,
    );
  });

  it('refuses a single stage of rate × duration under one request, at the stage\'s line', () => {
    // 0.1 × 5 = 0.5: BLIS's "produces 0 requests (< 1)".
    expect(refusal(doc(stage('0.1', '5')))).toBe(`${FILE}:5 inference_perf.stages[0]: expected rate × duration of at least 1 request, found 0.1 × 5 s = 0.5`);
    expect(refusal(doc(stage('0.1', '5'), sharedPrefix({ enable_multi_turn_chat: true })))).toMatch(/^ip\.yaml:5 inference_perf\.stages\[0\]: /);
  });

  it('refuses a multi-turn stage under one request wherever it is', () => {
    expect(refusal(doc(stage('1', '10') + stage('0.1', '5'), sharedPrefix({ enable_multi_turn_chat: true })))).toMatch(
      /^ip\.yaml:7 inference_perf\.stages\[1\]: expected rate × duration of at least 1 request/,
    );
  });

  it('accepts a stage under one request among several without multi-turn, as BLIS does (Poisson, no count)', () => {
    // BLIS checks floor(rate × duration) only where it splits it: a single stage, or sessions' rounds.
    const spec = parseWorkloadSpecText(doc(stage('1', '10') + stage('0.1', '5')), FILE);
    expect(spec.inferencePerf?.plan.clients.map((c) => c.window?.end)).toEqual([10e6, 10e6, 10e6, 10e6, 15e6, 15e6, 15e6, 15e6]);
  });

  it('refuses a single stage with more users than requests (BLIS: a client got 0 requests)', () => {
    // 0.3 × 10 = 3 requests for 2 × 2 = 4 users.
    expect(refusal(doc(stage('0.3', '10')))).toBe(`${FILE}:8 inference_perf.shared_prefix: expected at most 3 users (rate × duration requests, one or more each), found 4 users`);
    // Multi-turn sessions may get 0 rounds: BLIS runs them as sessions that send nothing.
    expect(parseWorkloadSpecText(doc(stage('0.3', '10'), sharedPrefix({ enable_multi_turn_chat: true })), FILE).inferencePerf?.plan.clients.map((c) => c.session?.maxRounds)).toEqual([1, 1, 1, 0]);
  });
});
