import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Workload features through the `blis` process: the BLIS example files run unchanged, trace
// fixtures replay with every request accounted for, run/replay parity, and bad workload input
// exits 2 with nothing on stdout. (Library-level workload tests live in packages/workload/test.)

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const EXAMPLES = join(ROOT, 'examples', 'workloads');
const FIXTURES = join(ROOT, 'packages', 'workload', 'test', 'fixtures');
const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const tmp = mkdtempSync(join(tmpdir(), 'blis-workload-cli-'));

function blis(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(...args: string[]): Record<string, unknown> & Record<string, number> {
  const r = blis(...args);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** INV-1 from the result JSON: every injected request is in exactly one terminal or live state. */
function accounted(res: Record<string, number>): number {
  return res.completed_requests + res.still_queued + res.still_running + res.dropped_unservable + res.timed_out_requests + res.rejected_requests;
}

describe('the BLIS example workloads run unchanged', () => {
  it.each([
    ['servegen-language.yaml', 500],
    ['prefix-affinity-demo.yaml', 200],
    // 200 sessions of 5 rounds: BLIS's count (the 500 cuts its placement of every round).
    ['multiturn-chat-demo.yaml', 1000],
    // Ours: empirical lengths from the ShareGPT CSV in bench/traces, by a path relative to the spec.
    ['sharegpt-empirical.yaml', 400],
  ])('blis run --workload-spec examples/workloads/%s', (file, n) => {
    const res = ok('run', ...MODEL, '--workload-spec', join(EXAMPLES, file), '--quiet');
    expect(res.injected_requests).toBe(n);
    expect(res.completed_requests).toBe(n);
    expect(accounted(res)).toBe(n);
  });

  it('a spec whose lifecycle windows all close runs without num_requests or horizon (the step-up/step-down demo)', () => {
    // ceil(r * T) - 1 requests per window (absolute rate mode): 59 + 10079 + 599 + 119.
    const spec = join(EXAMPLES, 'autoscale-step-up-down.yaml');
    const withHorizon = ok('run', ...MODEL, '--workload-spec', spec, '--horizon', '2700000000', '--quiet');
    expect(withHorizon.injected_requests).toBe(10856);
    expect(withHorizon.completed_requests).toBe(10856);
    const alone = ok('run', ...MODEL, '--workload-spec', spec, '--quiet');
    expect(alone.injected_requests).toBe(10856);
  });

  it('the multi-turn demo is 200 sessions of 5 rounds, as BLIS runs it (its comments say ~100)', () => {
    const res = ok('run', ...MODEL, '--workload-spec', join(EXAMPLES, 'multiturn-chat-demo.yaml'), '--quiet');
    expect(res.sessions).toMatchObject({ sessions: 200, rounds_completed: 1000 });
  });

  it('servegen-language reports per SLO class and per tenant with its 70/30 split', () => {
    const res = ok('run', ...MODEL, '--workload-spec', join(EXAMPLES, 'servegen-language.yaml'), '--quiet') as unknown as {
      per_slo_class: Record<string, { completed_requests: number }>;
      per_tenant: Record<string, { completed_requests: number }>;
    };
    const batch = res.per_slo_class.batch.completed_requests;
    const critical = res.per_slo_class.critical.completed_requests;
    expect(batch + critical).toBe(500);
    expect(res.per_tenant['tenant-A'].completed_requests).toBe(batch);
    // Two independent streams at 70 and 30 req/s: the batch share is ~0.7 (5 binomial SEs).
    expect(Math.abs(batch / 500 - 0.7)).toBeLessThan(5 * Math.sqrt((0.7 * 0.3) / 500));
  });

  it.each(['policy-config.yaml', 'weighted-routing.yaml'])('the policy file %s works with --policy-config', (file) => {
    const res = ok('run', ...MODEL, '--num-instances', '4', '--policy-config', join(EXAMPLES, file), '--workload-spec', join(EXAMPLES, 'prefix-affinity-demo.yaml'), '--quiet');
    expect(res.completed_requests).toBe(200);
  });
});

describe('blis replay of the trace fixtures', () => {
  it.each([
    ['mooncake-synthetic-300.jsonl', []],
    ['azure-code-300.csv', []],
    ['mooncake-synthetic-300.jsonl', ['--trace-format', 'mooncake']],
    ['azure-code-300.csv', ['--trace-format', 'azure', '--num-instances', '4']],
  ])('%s %j: all 300 requests injected and accounted for (INV-1)', (file, extra) => {
    const res = ok('replay', '--trace', join(FIXTURES, file), ...MODEL, ...extra, '--quiet');
    expect(res.injected_requests).toBe(300);
    expect(accounted(res)).toBe(300);
    expect(res.completed_requests).toBe(300);
  });

  it('--max-requests takes a prefix; --time-scale compresses arrivals', () => {
    const slow = ok('replay', '--trace', join(FIXTURES, 'azure-code-300.csv'), ...MODEL, '--max-requests', '100', '--quiet');
    const fast = ok('replay', '--trace', join(FIXTURES, 'azure-code-300.csv'), ...MODEL, '--max-requests', '100', '--time-scale', '0.25', '--quiet');
    expect(slow.injected_requests).toBe(100);
    expect(fast.injected_requests).toBe(100);
    // Same work in a quarter of the arrival window: the run cannot take longer.
    expect(fast.vllm_estimated_duration_s).toBeLessThan(slow.vllm_estimated_duration_s);
  });

  it('a small KV cache drops the Mooncake prompts it cannot hold, and still accounts for all', () => {
    const res = ok('replay', '--trace', join(FIXTURES, 'mooncake-synthetic-300.jsonl'), ...MODEL, '--total-kv-blocks', '2000', '--quiet');
    expect(res.dropped_unservable).toBeGreaterThan(0);
    expect(accounted(res)).toBe(300);
  });
});

describe('blis convert of a bad trace', () => {
  it('exits 2 and leaves no partial TraceV2 pair behind', () => {
    const bad = join(tmp, 'bad-row.csv');
    writeFileSync(bad, 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.97,12,3\n2023-11-16 18:17:04.97,x,3\n');
    const stem = join(tmp, 'bad-row-out');
    const r = blis('convert', '--trace', bad, '--output', stem);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bad-row\.csv:3 ContextTokens: expected an integer from 1 to 16777216, found "x"/);
    expect(existsSync(`${stem}.yaml`)).toBe(false);
    expect(existsSync(`${stem}.csv`)).toBe(false);
  });
});

describe('run/replay parity through blis convert', () => {
  const spec = join(tmp, 'parity.yaml');
  writeFileSync(
    spec,
    `version: "2"
seed: 99
aggregate_rate: 40
num_requests: 300
clients:
  - id: chat
    tenant_id: t1
    slo_class: critical
    rate_fraction: 0.6
    streaming: true
    prefix_group: system
    prefix_length: 200
    timeout: 30000000
    arrival: {process: gamma, cv: 2}
    input_distribution: {type: gaussian, params: {mean: 300, std_dev: 100, min: 20, max: 1000}}
    output_distribution: {type: exponential, params: {mean: 80}}
  - id: batch
    tenant_id: t2
    slo_class: batch
    rate_fraction: 0.4
    arrival: {process: poisson}
    input_distribution: {type: lognormal, params: {mu: 6, sigma: 0.7, max: 4000}}
    output_distribution: {type: constant, params: {value: 120}}
`,
  );

  it.each([[[]], [['--num-instances', '3', '--routing-policy', 'weighted', '--routing-scorers', 'prefix-affinity:3,queue-depth:1']]])(
    'run --workload-spec and replay of its conversion print the same result %j',
    (extra) => {
      const stem = join(tmp, `parity-${extra.length}`);
      const conv = blis('convert', '--workload-spec', spec, '--output', stem);
      expect(conv.code, conv.stderr).toBe(0);
      expect(JSON.parse(conv.stdout)).toEqual({ requests: 300, header: `${stem}.yaml`, csv: `${stem}.csv` });
      const run = blis('run', ...MODEL, '--workload-spec', spec, ...extra, '--quiet', '--results-path', `${stem}-run.json`);
      const replay = blis('replay', ...MODEL, '--trace', `${stem}.csv`, ...extra, '--quiet', '--results-path', `${stem}-replay.json`);
      expect(run.code, run.stderr).toBe(0);
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toBe(run.stdout);
      expect(readFileSync(`${stem}-replay.json`, 'utf8')).toBe(readFileSync(`${stem}-run.json`, 'utf8'));
    },
  );

  it("the converted rows follow BLIS's exporter: input_tokens leaves out the group's prefix", () => {
    const stem = join(tmp, 'parity-rows');
    expect(blis('convert', '--workload-spec', spec, '--output', stem).code).toBe(0);
    const rows = readFileSync(`${stem}.csv`, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const chat = rows.filter((r) => r[1] === 'chat');
    expect(chat.length).toBeGreaterThan(100);
    for (const r of chat) {
      expect([r[6], r[7]]).toEqual(['system', '200']);
      // The gaussian draw alone, in [20, 1000]; the 200 shared tokens come in front of it.
      expect(Number(r[9])).toBeGreaterThanOrEqual(20);
      expect(Number(r[9])).toBeLessThanOrEqual(1000);
      // deadline_us is absolute, as BLIS writes it: arrival + the 30 s timeout.
      expect(Number(r[17])).toBe(Number(r[19]) + 30_000_000);
    }
    const run = ok('run', ...MODEL, '--workload-spec', spec, '--quiet');
    expect(run.total_input_tokens).toBe(rows.reduce((a, r) => a + Number(r[9]) + Number(r[7]), 0));
  });

  it('the flag-driven workload and presets convert and replay the same way', () => {
    const stem = join(tmp, 'preset');
    expect(blis('convert', '--workload', 'chatbot', '--num-requests', '80', '--rate', '5', '--output', stem).code).toBe(0);
    const run = ok('run', ...MODEL, '--workload', 'chatbot', '--num-requests', '80', '--rate', '5', '--quiet');
    const replay = ok('replay', ...MODEL, '--trace', `${stem}.yaml`, '--quiet');
    expect(replay).toEqual(run);
    expect(run.completed_requests).toBe(80);
    // The preset's prompt lengths apply (chatbot: 256 ± 100 in [2, 800]; the flag default is 512):
    // the mean of 80 draws is within 5 standard errors (100 / sqrt(80)) of 256.
    expect(Math.abs(run.total_input_tokens / 80 - 256)).toBeLessThan((5 * 100) / Math.sqrt(80));
  });

  it('a Mooncake trace converts to TraceV2 with its arrivals and lengths', () => {
    const stem = join(tmp, 'mooncake');
    const conv = blis('convert', '--trace', join(FIXTURES, 'mooncake-synthetic-300.jsonl'), '--max-requests', '50', '--output', stem);
    expect(conv.code, conv.stderr).toBe(0);
    const lines = readFileSync(`${stem}.csv`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(51);
    const src = readFileSync(join(FIXTURES, 'mooncake-synthetic-300.jsonl'), 'utf8').split('\n');
    const row = lines[4].split(',');
    const orig = JSON.parse(src[3]) as { timestamp: number; input_length: number; output_length: number };
    expect([Number(row[9]), Number(row[10]), Number(row[19])]).toEqual([orig.input_length, orig.output_length, orig.timestamp * 1000]);
  });
});

describe('client timeouts and --max-model-len', () => {
  const spec = (timeout: number) => {
    const p = join(tmp, `timeout-${timeout}.yaml`);
    writeFileSync(
      p,
      `version: "2"
seed: 5
aggregate_rate: 200
num_requests: 120
clients:
  - id: c
    rate_fraction: 1
    timeout: ${timeout}
    input_distribution: {type: gaussian, params: {mean: 400, std_dev: 200, min: 10, max: 1500}}
    output_distribution: {type: exponential, params: {mean: 40}}
`,
    );
    return p;
  };

  it('a timeout shorter than the queueing delay times every request out, at exit 0', () => {
    const res = ok('run', ...MODEL, '--workload-spec', spec(100), '--quiet');
    expect(res.timed_out_requests).toBe(120);
    expect(accounted(res)).toBe(120);
  });

  it('timeouts met before queueing, while queued and while running, across a cluster with admission and routing latency', () => {
    const res = ok('run', ...MODEL, '--workload-spec', spec(150_000), '--num-instances', '2', '--admission-latency', '3000', '--routing-latency', '9000', '--quiet');
    expect(res.timed_out_requests).toBeGreaterThan(0);
    expect(res.completed_requests).toBeGreaterThan(0);
    expect(accounted(res)).toBe(120);
  });

  it('--results-path writes a record for every request: the completed under requests, the rest with their outcome', () => {
    const file = join(tmp, 'outcomes.json');
    const res = ok('run', ...MODEL, '--workload-spec', spec(150_000), '--num-instances', '2', '--admission-latency', '3000', '--routing-latency', '9000', '--quiet', '--results-path', file);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { requests: { request_id: string; outcome: string }[]; unfinished_requests: { request_id: string; outcome: string; left_ms: number | null }[] };
    expect(res).not.toHaveProperty('unfinished_requests');
    expect(saved.requests).toHaveLength(res.completed_requests);
    expect(saved.requests.every((q) => q.outcome === 'completed')).toBe(true);
    expect(saved.unfinished_requests).toHaveLength(120 - res.completed_requests);
    expect(saved.unfinished_requests.map((q) => q.outcome)).toEqual(Array(res.timed_out_requests).fill('timed_out'));
    expect(new Set([...saved.requests, ...saved.unfinished_requests].map((q) => q.request_id)).size).toBe(120);
  });

  it('--max-model-len drops the requests whose prompt plus output exceeds it', () => {
    const res = ok('run', ...MODEL, '--workload-spec', spec(0), '--max-model-len', '450', '--quiet');
    expect(res.dropped_unservable).toBeGreaterThan(0);
    expect(res.completed_requests).toBeGreaterThan(0);
    expect(res.length_capped_requests).toBe(0);
    expect(accounted(res)).toBe(120);
  });
});

describe('bad workload input: exit 2, nothing on stdout, file/line/field/expected/found on stderr', () => {
  const bad = (name: string, text: string) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const SPEC = `version: "2"
aggregate_rate: 10
num_requests: 20
clients:
  - id: a
    rate_fraction: 1
    input_distribution: {type: constant, params: {value: 100}}
    output_distribution: {type: constant, params: {value: 10}}
`;

  it.each([
    ['malformed YAML', 'malformed.yaml', 'version: "2"\nclients: [a, b\n  x: 1\n', /malformed\.yaml:2: expected valid YAML \(.*\), found "clients: \[a, b"/],
    ['unknown field', 'unknown.yaml', SPEC.replace('    rate_fraction: 1\n', '    rate_fraction: 1\n    colour: red\n'), /unknown\.yaml:7 clients\[0\]\.colour: expected a known field, found unknown field "colour"/],
    ['wrong type', 'type.yaml', SPEC.replace('aggregate_rate: 10', 'aggregate_rate: lots'), /type\.yaml:2 aggregate_rate: expected a number, found "lots"/],
    ['negative rate', 'neg.yaml', SPEC.replace('aggregate_rate: 10', 'aggregate_rate: -1'), /neg\.yaml:2 aggregate_rate: expected a number >= 0, found -1/],
    ['all-zero rate fractions', 'zero.yaml', SPEC.replace('rate_fraction: 1', 'rate_fraction: 0'), /zero\.yaml:5 clients: expected at least one client with rate_fraction > 0, found every rate_fraction is 0/],
    [
      'min > max',
      'minmax.yaml',
      SPEC.replace('{type: constant, params: {value: 100}}', '{type: gaussian, params: {mean: 100, std_dev: 5, min: 90, max: 50}}'),
      /minmax\.yaml:7 clients\[0\]\.input_distribution\.params\.min: expected min <= max \(50\), found 90/,
    ],
  ])('spec with %s', (_what, name, text, message) => {
    const r = blis('run', ...MODEL, '--workload-spec', bad(name, text));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['truncated Mooncake line', 'trunc.jsonl', '{"timestamp": 0, "input_length": 100, "output_length": 5}\n{"timestamp": 4, "input_le', /trunc\.jsonl:2: expected a Mooncake trace, one JSON object per line, found /],
    ['unreadable Azure field', 'field.csv', 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.97,12,x\n', /field\.csv:2 GeneratedTokens: expected an integer from 0 to 16777216, found "x"/],
    [
      'non-monotone Azure timestamps',
      'back.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:05.0,12,3\n2023-11-16 18:17:06.0,12,3\n2023-11-16 18:17:04.0,12,3\n',
      /back\.csv:4 TIMESTAMP: expected a time at or after the previous row's \(1000000 µs after the start\), found -1000000 µs/,
    ],
    ['unknown trace format', 'what.txt', 'hello\n', /what\.txt:1: expected a TraceV2 CSV\/YAML, a Mooncake JSONL or an Azure CSV \(or --trace-format\), found "hello"/],
  ])('replay of a %s', (_what, name, text, message) => {
    const r = blis('replay', ...MODEL, '--trace', bad(name, text));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('a missing trace file', () => {
    const r = blis('replay', ...MODEL, '--trace', join(tmp, 'absent.jsonl'), '--trace-format', 'mooncake');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/absent\.jsonl: expected a readable trace file, found ENOENT/);
  });
});

describe('--seed beside --workload-spec', () => {
  const spec = join(EXAMPLES, 'prefix-affinity-demo.yaml'); // its own seed is 42
  it('overrides the spec seed only when given, as BLIS flags do', () => {
    const own = blis('run', '--workload-spec', spec, '--num-requests', '60', '--quiet').stdout;
    expect(blis('run', '--workload-spec', spec, '--num-requests', '60', '--seed', '42', '--quiet').stdout).toBe(own);
    const other = ok('run', '--workload-spec', spec, '--num-requests', '60', '--seed', '7', '--quiet');
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(JSON.parse(own)));
    expect(other.injected_requests).toBe(60);
  });
});
