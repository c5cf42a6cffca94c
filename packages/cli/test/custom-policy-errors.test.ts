import { describe, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// A custom policy module that misbehaves during the run: exit 2, nothing on stdout, and one line
// on stderr naming the module path, the decision (which request, at what simulated time) and
// the problem; never a stack trace. (Load-time errors are in cli-errors.test.ts.)

// The default rate, 1 req/s, arrives every int64(1 / (1 / 1e6)) = 1,000,000 µs from 1 s on (BLIS's
// constant arrivals): request 0 is routed at 1,000,000 µs and request 2 at 3,000,000 µs.
const RUN = ['run', '--num-instances', '2', '--num-requests', '5', '--quiet'];
const module = (name: string) => `packages/cli/test/fixtures/policies/${name}.mjs`;
const who = (policy: string, name: string) => `routing policy "${policy}" (${module(name)}): route()`;

describe.concurrent('custom routing modules that misbehave during the run', () => {
  it('an instance out of range', ({ expect }) =>
    rejects(expect, [...RUN, '--routing-policy', module('out-of-range-router')], `${who('off-by-one', 'out-of-range-router')} for request 0 ("0") at 1000000 µs: returned instance 2; expected 0..1`));

  it('NaN scores', ({ expect }) =>
    rejects(expect, [...RUN, '--routing-policy', module('nan-scores-router')], `${who('nan-scores', 'nan-scores-router')} for request 0 ("0") at 1000000 µs: returned scores[0] = NaN; expected finite numbers`));

  it('a scorer module with NaN scores names its file', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', 'weighted', '--routing-scorers', `${module('nan-scorer')}:1,queue-depth:1`],
      new RegExp(`^blis: scorer "nan-scorer" \\(${module('nan-scorer').replace(/[.]/g, '\\.')}\\): score\\(\\) for request 0 \\("0"\\) at 1000000 µs: .*NaN`),
    ));

  it('a throw during route()', ({ expect }) =>
    rejects(expect, [...RUN, '--routing-policy', module('throwing-router')], `${who('throws-on-third', 'throwing-router')} for request 2 ("2") at 3000000 µs: threw: no route for 2`));

  it('a decision over --policy-budget-ms', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', module('slow-router'), '--policy-budget-ms', '5'],
      new RegExp(`^blis: ${who('slow', 'slow-router').replace(/[.()]/g, '\\$&')} for request 0 \\("0"\\) at 1000000 µs: took [\\d.]+ ms; the budget per decision is 5 ms$`),
    ));

  it('a decision that never returns: stopped by the watchdog at the budget plus as long again (at least 1 s), exit 2', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', module('spin-router'), '--policy-budget-ms', '300'],
      `${who('spin', 'spin-router')} for request 2 ("2") at 3000000 µs: did not return within 1300 ms (the budget per decision is 300 ms, --policy-budget-ms); the run was stopped`,
    ));

  it('a scorer module whose score() never returns names its file', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', 'weighted', '--routing-scorers', `${module('spin-scorer')}:1,queue-depth:1`, '--policy-budget-ms', '300'],
      `scorer "spin-scorer" (${module('spin-scorer')}): score() for request 0 ("0") at 1000000 µs: did not return within 1300 ms (the budget per decision is 300 ms, --policy-budget-ms); the run was stopped`,
    ));

  it('a factory that never returns', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', module('spin-factory'), '--policy-budget-ms', '300'],
      `--routing-policy ${module('spin-factory')}: expected a factory that returns within 1300 ms (the budget per decision is 300 ms, --policy-budget-ms), found it still running; the run was stopped`,
    ));

  it('a module whose top-level code never ends (limit: ten budgets, at least 5 s)', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', module('spin-on-load'), '--policy-budget-ms', '100'],
      `--routing-policy ${module('spin-on-load')}: expected a module that loads within 5000 ms, found it still running; the run was stopped`,
    ));

  it('a write to the router state under --check-policies', ({ expect }) =>
    rejects(
      expect,
      [...RUN, '--routing-policy', module('writing-router'), '--check-policies'],
      `${who('writer', 'writing-router')} for request 0 ("0") at 1000000 µs: wrote state.instances[0].queueDepth; the views a policy receives are read-only`,
    ));

  it('blis capacity checks its runs too', ({ expect }) =>
    rejects(
      expect,
      ['capacity', '--target', 'ttft_p99=500ms', '--num-requests', '20', '--quiet', '--routing-policy', module('writing-router'), '--check-policies'],
      `${who('writer', 'writing-router')} for request 0 ("0") at 1000000 µs: wrote state.instances[0].queueDepth; the views a policy receives are read-only`,
    ));

  it('without --check-policies the same writer runs to the end', async ({ expect }) => {
    const r = await blis([...RUN, '--routing-policy', module('writing-router')]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('--check-policies leaves a run of built-in policies unchanged', async ({ expect }) => {
    const args = [...RUN, '--num-requests', '30', '--rate', '20', '--routing-policy', 'weighted', '--scheduler', 'priority-fcfs'];
    const [plain, checked] = await Promise.all([blis(args), blis([...args, '--check-policies'])]);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toBe(plain.stdout);
  });

  it('--policy-budget-ms must be a positive number', ({ expect }) =>
    rejects(expect, [...RUN, '--policy-budget-ms', '0'], '--policy-budget-ms: expected a positive number, found "0"'));
});
