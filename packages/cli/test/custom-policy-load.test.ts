import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// Custom policies as the CLI loads them (policy-modules/): params from --policy-param and from
// the policy YAML, module paths in the YAML and in the scorer-list flags, and every load-time error:
// exit 2, the flag or YAML key and the module path named, nothing on stdout.

const DIR = join('packages', 'cli', 'test', 'fixtures', 'policies');
const mod = (name: string) => join(DIR, name);
const RUN = ['run', '--quiet', '--num-instances', '3', '--num-requests', '30', '--rate', '20'];

async function fairness(args: readonly string[]): Promise<number> {
  const r = await blis([...RUN, ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).load_fairness.jain_index as number;
}

describe('params reach a custom module', () => {
  it('from --policy-param, read as YAML, and change the result', async () => {
    const pinned = await fairness(['--routing-policy', mod('pinned-router.mjs')]);
    const spread = await fairness(['--routing-policy', mod('pinned-router.mjs'), '--policy-param', 'routing.spread=3']);
    // One instance of three busy: Jain's index is 1/3; rotating over all three evens it out.
    expect(pinned).toBeCloseTo(1 / 3, 12);
    expect(spread).toBeGreaterThan(0.9);
  });

  it('from the policy YAML (type: a module path relative to the file, params:), and flags win', async () => {
    const fromYaml = await fairness(['--policy-config', mod('yaml/routing.yaml')]);
    expect(fromYaml).toBeGreaterThan(0.9);
    expect(await fairness(['--policy-config', mod('yaml/routing.yaml'), '--policy-param', 'routing.spread=1'])).toBeCloseTo(1 / 3, 12);
  });

  it('bad params for a built-in are named by the flag', () =>
    rejects(expect, [...RUN, '--policy-param', 'routing.alpha=0.5'], '--policy-param routing.alpha: expected a known field, found unknown field "alpha"'));

  it('a malformed --policy-param is refused', () =>
    rejects(expect, [...RUN, '--policy-param', 'nokind'], /^blis: --policy-param: expected <kind>\.<key>=<value> .*found "nokind"$/));
});

describe('scorer modules in the weighted router', () => {
  it('from --routing-scorers, with params from --policy-param scorer.<name>.<key>', async () => {
    const base = ['--routing-policy', 'weighted', '--routing-scorers', `${mod('inverse-load-scorer.mjs')}:5,queue-depth:1`];
    const heavy = await fairness(base);
    const off = await fairness([...base, '--policy-param', 'scorer.inverse-load-scorer.bias=0']);
    expect(heavy).toBeLessThan(0.5);
    expect(off).toBeGreaterThan(0.9);
  });

  it('from --decode-routing-scorers: the P/D decode pool is weighted by the module', async () => {
    const pd = ['run', '--quiet', '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2', '--pd-decider', 'always', '--num-requests', '30', '--rate', '20'];
    const targets = async (scorers: string) => {
      const r = await blis([...pd, '--decode-routing-scorers', scorers]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).target_distribution as Record<string, number>;
    };
    // Decode pods are instances 2 and 3; the module scores the pool's last pod best. Without it,
    // queue-depth alone reads the decode pods' waiting queues, mostly empty at this rate, so the
    // pods mostly tie and the decode router's random tie-break spreads the requests over both.
    const plain = await targets('queue-depth:1');
    expect([plain.instance_0, plain.instance_1]).toEqual([15, 15]);
    expect(plain.instance_2 + plain.instance_3).toBe(30);
    expect(Math.min(plain.instance_2, plain.instance_3)).toBeGreaterThan(5);
    expect(await targets(`${mod('inverse-load-scorer.mjs')}:5,queue-depth:1`)).toEqual({ instance_0: 15, instance_1: 15, instance_2: 0, instance_3: 30 });
  });

  it('from routing.scorers[].name in the policy YAML', async () => {
    expect(await fairness(['--policy-config', mod('yaml/scorers.yaml')])).toBeLessThan(0.5);
  });
});

describe('load-time errors: exit 2, flag or key and module path, no stack trace', () => {
  const flag = (file: string) => `--routing-policy ${mod(file)}`;
  it.each([
    ['a module that throws on import', 'throws-on-import.mjs', 'expected an importable ES module, found importing it threw: broken at import'],
    ['no default export', 'no-default.mjs', 'expected a default export that is a policy factory function, (ctx) => policy, found no default export'],
    ['a default export that is not a function', 'not-a-function.mjs', 'expected a default export that is a policy factory function, (ctx) => policy, found object'],
    ['a factory that throws', 'factory-throws.mjs', 'expected a factory that builds a policy, found it threw: no router today'],
    ['a policy without its method', 'no-route.mjs', 'expected a routing policy object with a string "name" and a route() method, found ["name"]'],
  ])('%s', (_what, file, message) => rejects(expect, [...RUN, '--routing-policy', mod(file)], `${flag(file)}: ${message}`));

  it('a module that does not exist', () =>
    rejects(expect, [...RUN, '--routing-policy', './no-such-router.mjs'], '--routing-policy: expected a policy name or an existing ES module path, found "./no-such-router.mjs"'));

  it('a YAML module that does not exist, named by file, line and key', () =>
    rejects(expect, [...RUN, '--policy-config', mod('yaml/missing.yaml')], new RegExp(`^blis: ${mod('yaml/missing.yaml')}:4 routing\\.type \\(\\./nowhere\\.mjs\\): expected an existing ES module .*nowhere\\.mjs"$`)));

  it('a YAML module whose factory refuses its params', () =>
    rejects(expect, [...RUN, '--policy-config', mod('yaml/routing.yaml'), '--policy-param', 'routing.spread=7'], `${mod('yaml/routing.yaml')}:2 routing.type (../pinned-router.mjs): expected a factory that builds a policy, found it threw: spread must be an integer in 1..3, got 7`));

  it('a scorer module of the wrong shape', () =>
    rejects(expect, [...RUN, '--routing-policy', 'weighted', '--routing-scorers', `${mod('no-route.mjs')}:1`], `--routing-scorers ${mod('no-route.mjs')}: expected a scorer policy object with a string "name" and a score() method, found ["name"]`));
});
