// End to end: the real `blis` CLI loads the BUILT modules: dist/index.js as --routing-policy and
// dist/slo-guard-autoscaler.js as --autoscaler-policy. Needs `pnpm run build` here first (and,
// inside the monorepo, the root `pnpm build` for the @blis/policies these modules import at run
// time).
//
// The blis binary: $BLIS_BIN if set (a .js launcher is run with this Node), else the workspace's
// packages/cli/bin/blis.js, else `blis` on PATH: the @blis/cli devDependency's bin under `npm test`
// (how tools/run-examples.mjs runs this against the packed packages), or `npm i -g @blis/cli`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const builtModule = resolve(packageDir, 'dist/index.js');
const builtAutoscaler = resolve(packageDir, 'dist/slo-guard-autoscaler.js');
const builtLearner = resolve(packageDir, 'dist/latency-learning-router.js');

function blisCommand(): { command: string; prefix: string[] } {
  const fromEnv = process.env.BLIS_BIN;
  if (fromEnv) return /\.[cm]?js$/.test(fromEnv) ? { command: process.execPath, prefix: [fromEnv] } : { command: fromEnv, prefix: [] };
  const workspace = resolve(packageDir, '../../packages/cli/bin/blis.js');
  if (existsSync(workspace)) return { command: process.execPath, prefix: [workspace] };
  return { command: 'blis', prefix: [] };
}

interface Result {
  completed_requests: number;
  injected_requests: number;
  rejected_requests: number;
  target_distribution: Record<string, number>;
  [key: string]: unknown;
}

/** `blis <args>`, which must exit 0 with a result JSON on stdout; the parsed result. */
function blis(args: readonly string[]): { result: Result; stdout: string; stderr: string } {
  const { command, prefix } = blisCommand();
  const p = spawnSync(command, [...prefix, ...args], { cwd: packageDir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(p.error, undefined, `cannot run ${command}: ${p.error?.message}`);
  assert.equal(p.status, 0, `blis ${args.join(' ')} exited ${p.status}\n${p.stderr}`);
  let result: Result;
  try {
    result = JSON.parse(p.stdout) as Result;
  } catch (e) {
    assert.fail(`stdout is not JSON (${(e as Error).message}):\n${p.stdout.slice(0, 500)}`);
  }
  return { result, stdout: p.stdout, stderr: p.stderr };
}

/** `blis run` on 4 instances, 200 requests at 20/s, with the given routing policy; the parsed result. */
function blisRun(routingPolicy: string): { result: Result; stdout: string } {
  return blis(['run', '--num-instances', '4', '--routing-policy', routingPolicy, '--num-requests', '200', '--rate', '20', '--quiet']);
}

function assertValidResult(r: Result): void {
  assert.equal(r.completed_requests, 200);
  assert.equal(r.injected_requests, 200);
  assert.equal(r.rejected_requests, 0);
  assert.deepEqual(Object.keys(r.target_distribution).sort(), ['instance_0', 'instance_1', 'instance_2', 'instance_3']);
  assert.equal(Object.values(r.target_distribution).reduce((a, b) => a + b, 0), 200);
  for (const key of ['ttft_mean_ms', 'e2e_mean_ms', 'responses_per_sec']) {
    assert.ok(Number.isFinite(r[key]) && (r[key] as number) > 0, `${key} = ${r[key]}`);
  }
}

describe('blis run --routing-policy <built module>', () => {
  before(() => {
    assert.ok(existsSync(builtModule), `${builtModule} is missing: run \`pnpm run build\` in ${packageDir} first`);
  });

  it('runs the custom policy, and its result differs from round-robin', () => {
    const custom = blisRun(builtModule);
    assertValidResult(custom.result);

    const roundRobin = blisRun('round-robin');
    assertValidResult(roundRobin.result);
    // Round-robin spreads 200 requests exactly evenly; random sampling does not.
    assert.deepEqual(Object.values(roundRobin.result.target_distribution), [50, 50, 50, 50]);
    assert.notDeepEqual(custom.result.target_distribution, roundRobin.result.target_distribution);
    assert.notEqual(custom.stdout, roundRobin.stdout);
  });

  it('is reproducible: the same seed gives the same result (ctx.random, not Math.random)', () => {
    assert.equal(blisRun(builtModule).stdout, blisRun(builtModule).stdout);
  });
});

describe('blis run --routing-policy <learning router> --policy-param ...', () => {
  before(() => {
    assert.ok(existsSync(builtLearner), `${builtLearner} is missing: run \`pnpm run build\` in ${packageDir} first`);
  });

  it('params reach the module: a concurrency limit rejects at the router, and the result carries its custom metrics', () => {
    const base = ['run', '--num-instances', '2', '--routing-policy', builtLearner, '--num-requests', '300', '--rate', '60', '--quiet'];
    const free = blis(base).result;
    assert.equal(free.rejected_requests, 0);
    const learned = (free.custom_metrics as Record<string, Record<string, number>>)['least-expected-wait'];
    assert.equal(learned.rejected, 0);
    assert.equal(learned.samples, 300);

    const limited = blis([...base, '--policy-param', 'routing.maxInFlight=4', '--policy-param', 'routing.shortPromptTokens=400']).result;
    const m = (limited.custom_metrics as Record<string, Record<string, number>>)['least-expected-wait'];
    assert.ok(limited.rejected_requests > 0, 'at 60 requests/s, 4 in flight per instance is not enough');
    assert.equal(m.rejected, limited.rejected_requests);
    assert.equal(limited.completed_requests + limited.rejected_requests, 300);
    assert.ok(m.hinted > 0);
  });

  it('a bad param stops the run before it starts, naming the module', () => {
    const { command, prefix } = blisCommand();
    const p = spawnSync(command, [...prefix, 'run', '--routing-policy', builtLearner, '--policy-param', 'routing.alpha=2', '--num-requests', '5'], { cwd: packageDir, encoding: 'utf8' });
    assert.equal(p.status, 2);
    assert.equal(p.stdout, '');
    assert.match(p.stderr, /latency-learning-router\.js.*alpha must be a number in \(0, 1\]/);
  });
});

interface Autoscaling {
  policy: string | null;
  evaluations: number;
  scale_up_events: number;
  replicas_added: number;
  peak_replicas: number;
}

interface SloAttainment {
  overall: number;
  requests_with_target: number;
}

describe('blis run --autoscaler-policy <built module>', () => {
  let dir = '';
  before(() => {
    assert.ok(existsSync(builtAutoscaler), `${builtAutoscaler} is missing: run \`pnpm run build\` in ${packageDir} first`);
    dir = mkdtempSync(join(tmpdir(), 'blis-slo-guard-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scales up one replica that misses its TTFT target, and more requests meet it', () => {
    // One replica, 1,200 requests at 40/s (30 s of arrivals), TTFT target 500 ms: past about
    // 15 s the replica's batch is too big for the target and attainment falls below 0.9.
    const workload = ['run', '--num-instances', '1', '--num-requests', '1200', '--rate', '40', '--slo-ttft', '500000'];
    const trace = join(dir, 'trace.jsonl');
    const scaled = blis([
      ...workload,
      '--autoscaler-enabled',
      '--model-autoscaler-interval-us', '5000000',
      '--autoscaler-policy', builtAutoscaler,
      '--trace-level', 'decisions',
      '--decision-trace', trace,
    ]);
    const alone = blis(workload);

    assert.equal(scaled.result.completed_requests, 1200);
    const as = scaled.result.autoscaling as Autoscaling;
    assert.ok(as.evaluations > 0);
    assert.ok(as.scale_up_events >= 1 && as.replicas_added >= 1 && as.peak_replicas >= 2, JSON.stringify(as));
    assert.match(scaled.stderr, /^blis: autoscaling: .*; [1-9]\d* scale-ups? \(\+[1-9]\d*\)/m);
    assert.equal(alone.result.autoscaling, undefined);

    // The result, the stderr line and the decision trace name the module's autoscaler, and its
    // scale records carry its reasons.
    assert.equal(as.policy, 'slo-guard');
    assert.match(scaled.stderr, /^blis: autoscaling: slo-guard, /m);
    const records = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const header = records[0] as { t: string; policies: Record<string, string> };
    assert.equal(header.t, 'header');
    assert.equal(header.policies.autoscaler, 'slo-guard');
    const scale = records.filter((r) => r.t === 'scale') as { policy: string; outcome: string; delta: number; reason: string }[];
    assert.equal(scale.length, as.evaluations);
    for (const r of scale) assert.equal(r.policy, 'slo-guard');
    const ups = scale.filter((r) => r.outcome === 'scheduled' && r.delta > 0);
    assert.ok(ups.length >= 1, 'no scale-up was scheduled');
    for (const r of ups) assert.match(r.reason, /^attainment 0\.\d{3} < floor 0\.900: \+\d+$/);

    // The point of scaling: more of the 1,200 requests meet the target than on one replica alone.
    const met = (r: Result) => (r.slo_attainment as SloAttainment).overall;
    assert.equal((scaled.result.slo_attainment as SloAttainment).requests_with_target, 1200);
    assert.ok(met(scaled.result) > met(alone.result), `attainment ${met(scaled.result)} scaled vs ${met(alone.result)} alone`);
  });
});
