// End to end: the real `blis` CLI loads the BUILT module (dist/index.js) as --routing-policy.
// Needs `pnpm run build` here first (and, inside the monorepo, the root `pnpm build` for the
// @blis/policies this module imports at run time).
//
// The blis binary: $BLIS_BIN if set (a .js launcher is run with this Node), else the workspace's
// packages/cli/bin/blis.js, else `blis` on PATH (e.g. `npm i -g @blis/cli`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const builtModule = resolve(packageDir, 'dist/index.js');

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

/** `blis run` on 4 instances, 200 requests at 20/s, with the given routing policy; the parsed result. */
function blisRun(routingPolicy: string): { result: Result; stdout: string } {
  const { command, prefix } = blisCommand();
  const args = [...prefix, 'run', '--num-instances', '4', '--routing-policy', routingPolicy, '--num-requests', '200', '--rate', '20', '--quiet'];
  const p = spawnSync(command, args, { cwd: packageDir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(p.error, undefined, `cannot run ${command}: ${p.error?.message}`);
  assert.equal(p.status, 0, `blis ${args.slice(prefix.length).join(' ')} exited ${p.status}\n${p.stderr}`);
  let result: Result;
  try {
    result = JSON.parse(p.stdout) as Result;
  } catch (e) {
    assert.fail(`stdout is not JSON (${(e as Error).message}):\n${p.stdout.slice(0, 500)}`);
  }
  return { result, stdout: p.stdout };
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
