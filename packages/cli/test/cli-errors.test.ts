import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FITNESS_METRICS } from '@blis/cluster';
import { knownHardware, knownModels } from '@blis/latency';
import { listPolicies } from '@blis/policies';
import { describe, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// Bad input through the `blis` process: exit code 2, nothing on stdout, and on stderr one line
// per problem, `blis: <where>: expected <what>, found <what>`, naming the flag (or file and line),
// the expected and the found value. Lists of valid names come from the packages themselves.

const tmp = mkdtempSync(join(tmpdir(), 'blis-cli-errors-'));



const RUN = ['run', '--num-requests', '5', '--quiet'];
const policies = listPolicies();
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
type Row = readonly [readonly string[], string];

describe.concurrent('the model and latency flags', () => {
  it('an unknown model: the message lists every known model', ({ expect }) =>
    rejects(expect, [...RUN, '--model', 'acme/llm-9000'], `--model: expected a known model (${knownModels().join(', ')}), found "acme/llm-9000"`));

  it.for<Row>([
    [['--latency-model', 'magic'], '--latency-model: expected one of blackbox, roofline, trained-physics, found "magic"'],
    [['--latency-model', 'trained-physics', '--beta-coeffs', '1,2,3'], '--beta-coeffs: expected 7 to 11 comma-separated numbers for --latency-model trained-physics, found 3 numbers'],
    [['--latency-model', 'trained-physics', '--beta-coeffs', '1,2,3,4,5,6,7,8,9,10,11,12'], '--beta-coeffs: expected 7 to 11 comma-separated numbers for --latency-model trained-physics, found 12 numbers'],
    [['--latency-model', 'trained-physics', '--beta-coeffs', '1,2,3,4,5,6,-7'], '--beta-coeffs: expected non-negative trained-physics coefficients, found -7'],
    [['--latency-model', 'trained-physics', '--alpha-coeffs', '1,2,-3'], '--alpha-coeffs: expected non-negative trained-physics coefficients, found -3'],
    [['--latency-model', 'trained-physics', '--alpha-coeffs', '1,NaN,3'], '--alpha-coeffs: expected three comma-separated numbers (e.g. "1000,2.5,0"), found "1,NaN,3"'],
    [['--latency-model', 'trained-physics', '--beta-coeffs', '1,2,3,4,5,6,x'], '--beta-coeffs: expected comma-separated numbers (e.g. "1000,2.5,0"), found "1,2,3,4,5,6,x"'],
    [['--latency-model', 'trained-physics', '--model', 'microsoft/phi-4'], '--model-config: expected a Hugging Face config.json for microsoft/phi-4 (trained-physics needs one and the catalogue has none), found nothing'],
    [['--latency-model', 'roofline', '--model', 'microsoft/phi-4'], '--model-config: expected a Hugging Face config.json for microsoft/phi-4 (roofline needs one and the catalogue has none), found nothing'],
    [['--model', 'meta-llama/llama-3.1-8b-instruct', '--beta-coeffs', '1,2,3,4'], '--beta-coeffs: expected three comma-separated numbers (e.g. "1000,2.5,0"), or 7 to 11 with --latency-model trained-physics, found 4 numbers'],
    [['--tp', '0'], '--tp: expected a positive integer, found "0"'],
    [['--tp', 'two'], '--tp: expected a positive integer, found "two"'],
    // vLLM refuses a TP that does not divide the attention heads (32 for Llama 3.1 8B, 40 for Qwen3 14B).
    [['--tp', '3'], '--tp: expected a divisor of the 32 attention heads of meta-llama/llama-3.1-8b-instruct (1, 2, 4, 8, 16, 32), found 3'],
    [['--model', 'qwen/qwen3-14b', '--tp', '16'], '--tp: expected a divisor of the 40 attention heads of qwen/qwen3-14b (1, 2, 4, 5, 8, 10, 20, 40), found 16'],
    [['--hardware', 'TPU-v9'], `--hardware: expected one of ${knownHardware().join(', ')} (or a GPU from --hardware-config), found "TPU-v9"`],
    [['--alpha-coeffs', '1,2'], '--alpha-coeffs: expected three comma-separated numbers (e.g. "1000,2.5,0"), found "1,2"'],
    [['--beta-coeffs', 'a,b,c'], '--beta-coeffs: expected comma-separated numbers (e.g. "1000,2.5,0"), found "a,b,c"'],
    [['--alpha-coeffs', '1,2,3'], '--beta-coeffs: expected to be given with --alpha-coeffs (or --model, whose trained coefficients fill in the other), found only --alpha-coeffs'],
    [['--model-config', '/no/such/config.json'], '--model-config /no/such/config.json: expected a readable model config (config.json or its folder), found ENOENT (no such file or directory)'],
  ])('%j', ([flags, message], { expect }) => rejects(expect, [...RUN, ...flags], message));
});

describe.concurrent('numbers and ranges', () => {
  it.for<Row>([
    [['--rate', '-1'], '--rate: expected a positive number, found "-1"'],
    [['--rate=0'], '--rate: expected a positive number, found "0"'],
    [['--rate', 'fast'], '--rate: expected a positive number, found "fast"'],
    [['--rate', ''], '--rate: expected a positive number, found an empty value'],
    [['--num-requests', '0'], '--num-requests: expected a positive integer, found "0"'],
    [['--num-requests', '-10'], '--num-requests: expected a positive integer, found "-10"'],
    [['--num-requests', '2.5'], '--num-requests: expected a positive integer, found "2.5"'],
    [['--seed', 'abc'], '--seed: expected an integer, found "abc"'],
    [['--max-num-running-reqs', 'many'], '--max-num-seqs: expected a positive integer, found "many"'],
    [['--max-num-seqs', '8', '--max-num-running-reqs', '8'], '--max-num-seqs: expected one of --max-num-seqs or --max-num-running-reqs, found both'],
    [['--gpu-memory-utilization', '1.5'], '--gpu-memory-utilization: expected a number in (0, 1], found "1.5"'],
    [['--prompt-tokens-min', '100', '--prompt-tokens-max', '50'], '--prompt-tokens-min: expected at most --prompt-tokens-max (50), found 100'],
    [['--output-tokens-min', '900', '--output-tokens-max', '10'], '--output-tokens-min: expected at most --output-tokens-max (10), found 900'],
    [['--workload', 'poetry'], '--workload: expected a preset of the catalogue: chatbot, contentgen, multidoc, summarization, or distribution (the length flags), found "poetry"'],
    [['--arrival-process', 'gamma'], '--arrival-process: expected one of poisson, constant, found "gamma"'],
    [['--max-model-len', '-1'], '--max-model-len: expected a non-negative integer, found "-1"'],
    [['--max-model-len', '4096.5'], '--max-model-len: expected a non-negative integer, found "4096.5"'],
    [['--max-model-len', 'long'], '--max-model-len: expected a non-negative integer, found "long"'],
  ])('%j', ([flags, message], { expect }) => rejects(expect, [...RUN, ...flags], message));

  it('reports every bad flag at once, one line each', async ({ expect }) => {
    await rejects(expect, [...RUN, '--rate', '-1', '--num-requests', '0', '--tp', 'x'], '--tp: expected a positive integer, found "x"', '--num-requests: expected a positive integer, found "0"', '--rate: expected a positive number, found "-1"');
    await rejects(
      expect,
      [...RUN, '--prompt-tokens-min', '9', '--prompt-tokens-max', '8', '--output-tokens-min', '9', '--output-tokens-max', '8'],
      '--prompt-tokens-min: expected at most --prompt-tokens-max (8), found 9',
      '--output-tokens-min: expected at most --output-tokens-max (8), found 9',
    );
  });
});

describe.concurrent('the command line itself', () => {
  it.for<Row>([
    [[...RUN, '--bogus'], '--bogus: expected an option of `blis run` (see `blis run --help`), found an unknown option'],
    [['replay', '--trace-fromat', 'x'], '--trace-fromat: expected an option of `blis replay` (see `blis replay --help`), found an unknown option; did you mean --trace-format?'],
    [['--bogus'], '--bogus: expected an option of `blis` (see `blis --help`), found an unknown option'],
    [['rnu'], 'command: expected one of run, replay, capacity, observe, convert, evaluate, sweep, worker, compare, serve-sim, calibrate, report, compose, models, policies, found "rnu"; did you mean run?'],
    [[...RUN, '--rate'], '--rate: expected a value after it, found nothing'],
    [[...RUN, 'meta-llama/llama-3.1-8b-instruct'], 'run: expected options only (every value follows its --flag), found the extra argument "meta-llama/llama-3.1-8b-instruct"'],
    [['convert', '--workload', 'chatbot'], '--output: expected a value (`blis convert` requires it), found nothing'],
  ])('%j', ([args, message], { expect }) => rejects(expect, args, message));

  it('replay refuses workload-generation flags: the trace gives arrivals and lengths', ({ expect }) =>
    rejects(
      expect,
      ['replay', '--trace', 'x.csv', '--rate', '3', '--workload', 'chatbot'],
      '--rate: expected no workload-generation flag with `blis replay` (the trace gives arrivals and lengths; see --max-requests, --time-scale), found "3"',
      '--workload: expected no workload-generation flag with `blis replay` (the trace gives arrivals and lengths; see --max-requests, --time-scale), found "chatbot"',
    ));

  it('`blis` with no command prints the help on stderr and exits 2', async ({ expect }) => {
    const r = await blis([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: blis \[options\] \[command\]/);
    expect(r.stderr).toMatch(/\nblis: command: expected one of run, replay, capacity, observe, convert, evaluate, sweep, worker, compare, serve-sim, calibrate, report, compose, models, policies, found nothing\n$/);
  });

  it('the exit code and streams survive the bin launchers (bin/blis.cjs, bin/blis.js)', async ({ expect }) => {
    expect(await blis([...RUN, '--rate', '-1', '--rat', '2'], true)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'blis: --rat: expected an option of `blis run` (see `blis run --help`), found an unknown option; did you mean --rate?\n',
    });
    expect(await blis([...RUN, '--rate', '-1'], true)).toEqual({ code: 2, stdout: '', stderr: 'blis: --rate: expected a positive number, found "-1"\n' });
  });
});

describe.concurrent('policy names', () => {
  it.for([
    ['--routing-policy', 'routing'],
    ['--admission-policy', 'admission'],
    ['--priority-policy', 'priority'],
    ['--scheduler', 'scheduler'],
  ] as const)('an unknown %s lists the valid ones', async ([flag, kind], { expect }) => {
    expect(policies[kind].length).toBeGreaterThan(1);
    await rejects(expect, [...RUN, flag, 'nope'], `${flag}: expected one of ${policies[kind].join(', ')}, found "nope"`);
  });

  it.for<readonly [string, string]>([
    ['nope:1', `--routing-scorers: expected "name:weight,..." pairs over ${[...policies.scorer].sort().join(', ')}, found unknown scorer "nope"`],
    ['queue-depth:x', '--routing-scorers: expected the weight of "queue-depth" to be a finite number > 0, found "x"'],
    ['queue-depth', '--routing-scorers: expected name:weight entries, found "queue-depth"'],
  ])('--routing-scorers %s', ([spec, message], { expect }) => rejects(expect, [...RUN, '--routing-policy', 'weighted', '--routing-scorers', spec], message));

  it('a module path that does not exist', ({ expect }) =>
    rejects(expect, [...RUN, '--scheduler', './no-such-scheduler.mjs'], '--scheduler: expected a policy name or an existing ES module path, found "./no-such-scheduler.mjs"'));
});

describe.concurrent('--policy-config files', () => {
  it('a missing file', ({ expect }) => {
    const p = join(tmp, 'absent-policy.yaml');
    return rejects(expect, [...RUN, '--policy-config', p], `--policy-config ${p}: expected a readable policy configuration file, found ENOENT (no such file or directory)`);
  });

  it.for<readonly [string, string, string, RegExp]>([
    ['syntax', 'a YAML syntax error (names the line)', 'admission:\n  policy: [always-admit\nrouting: x\n', /^blis: \S+syntax\.yaml:2: expected valid YAML \(a \] closing the \[ at column 11\), found " {2}policy: \[always-admit", never closed$/],
    ['section', 'an unknown field in a section', 'admission:\n  policy: always-admit\nrouting:\n  policy: weighted\n  colour: red\n', /^blis: \S+section\.yaml:5 routing\.colour: expected a known field, found unknown field "colour" \(not a parameter of this policy\)$/],
    ['top', 'an unknown top-level field', 'routing:\n  policy: weighted\ncolour: red\n', /^blis: \S+top\.yaml:3 colour: expected a known field, found unknown field "colour"$/],
    ['routing', 'an unknown routing policy', 'routing:\n  policy: nope\n', new RegExp(`^blis: \\S+routing\\.yaml:2 routing\\.policy: expected a known routing policy \\(${policies.routing.join(', ')}\\), found "nope"$`)],
    ['scorer', 'an unknown scorer', 'routing:\n  policy: weighted\n  scorers:\n    - name: queue-depth\n      weight: 1\n    - name: nope\n      weight: 1\n', /^blis: \S+scorer\.yaml:6 routing\.scorers\[1\]\.name: expected a known scorer \(.*queue-depth.*\), found "nope"$/],
    ['param', 'a bad parameter', 'admission:\n  policy: token-bucket\n  token_bucket_capacity: lots\n', /^blis: \S+param\.yaml:3 admission\.token_bucket_capacity: expected a finite number > 0, found "lots"$/],
  ])('%s.yaml: %s', ([name, _what, text, message], { expect }) => rejects(expect, [...RUN, '--policy-config', file(`${name}.yaml`, text)], message));
});

describe.concurrent('workload and output files', () => {
  it('a missing --workload-spec', ({ expect }) => {
    const p = join(tmp, 'absent-spec.yaml');
    return rejects(expect, [...RUN, '--workload-spec', p], `--workload-spec ${p}: expected a readable workload spec file, found ENOENT (no such file or directory)`);
  });

  it('replay without --trace, and with a missing one', async ({ expect }) => {
    await rejects(expect, ['replay', '--quiet'], '--trace: expected a trace file path (or --trace-header with --trace-data), found nothing');
    const p = join(tmp, 'absent.csv');
    await rejects(expect, ['replay', '--quiet', '--trace', p], `--trace ${p}: expected a readable trace file, found ENOENT (no such file or directory)`);
  });

  it('an unwritable --results-path fails before the run, with nothing on stdout', ({ expect }) =>
    rejects(expect, [...RUN, '--results-path', join(tmp, 'no-dir', 'r.json')], '--results-path: expected a writable file, found ENOENT (no such file or directory)'));

  it.for<readonly [string, string]>([
    ['bogus:1', `--fitness-weights: expected metric:weight pairs over ${FITNESS_METRICS.join(', ')}, found unknown fitness metric "bogus"`],
    ['throughput:x', '--fitness-weights: expected the weight of throughput to be a non-negative number, found "x"'],
  ])('--fitness-weights %s', ([spec, message], { expect }) => rejects(expect, [...RUN, '--fitness-weights', spec], message));
});
