
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { ROOT, rejects } from './blis-process.js';
import { BUILTIN_AUTOSCALERS, RUN, file } from './autoscale-cli-helpers.js';

// Bad autoscaling input on the command line: exit 2, nothing on stdout, one line naming the flag
// (expected and found) or the `--policy-config` file, line and key.

describe.concurrent('bad --policy-config sections: exit 2, file, line and key', () => {
  const POOL = (name: string) => `  - name: ${name}\n    gpu_type: H100\n    gpus_per_node: 1\n    gpu_memory_gib: 80\n    max_nodes: 2\n`;
  const known = BUILTIN_AUTOSCALERS;
  it.for<readonly [string, string, (p: string) => string]>([
    [
      'negative-delay',
      'instance_lifecycle:\n  loading_delay:\n    mean: -1\n',
      (p) => `${p}:3 instance_lifecycle.loading_delay.mean: expected a finite number of seconds >= 0, found -1`,
    ],
    [
      'negative-scrape-delay',
      'autoscaler:\n  interval_us: 1000000\n  hpa_scrape_delay:\n    mean: 1\n    stddev: -0.5\n',
      (p) => `${p}:5 autoscaler.hpa_scrape_delay.stddev: expected a finite number of seconds >= 0, found -0.5`,
    ],
    [
      'min-over-max',
      'autoscaler:\n  interval_us: 1000000\n  min_replicas: 3\n  max_replicas: 2\n',
      (p) => `${p}:3 autoscaler.min_replicas: expected min_replicas <= max_replicas (2), found 3`,
    ],
    [
      'unknown-autoscaler',
      'autoscaler:\n  interval_us: 1000000\n  policy: bogus\n',
      (p) => `${p}:3 autoscaler.policy: expected a known autoscaler (${known.length > 0 ? known.join(', ') : 'none registered'}), found "bogus"`,
    ],
    ['duplicate-pools', `node_pools:\n${POOL('a')}${POOL('b')}${POOL('a')}`, (p) => `${p}:12 node_pools[2].name: expected each node pool name at most once, found "a" again`],
    [
      'boundary-over-threshold',
      'autoscaler:\n  interval_us: 1000000\n  analyzer:\n    scale_up_threshold: 0.5\n    scale_down_boundary: 0.6\n',
      (p) => `${p}:5 autoscaler.analyzer.scale_down_boundary: expected scale_down_boundary < the effective scale_up_threshold (0.5), found 0.6`,
    ],
    [
      'unknown-key',
      'instance_lifecycle:\n  warm_start_initial_instances: true\n  warmup_requests: 3\n',
      (p) => `${p}:3 instance_lifecycle.warmup_requests: expected a known field, found unknown field "warmup_requests" (not a parameter of this policy)`,
    ],
    [
      'drain-policy',
      'instance_lifecycle:\n  drain_policy: SOON\n',
      (p) => `${p}:2 instance_lifecycle.drain_policy: expected a drain policy: WAIT, IMMEDIATE or REDIRECT, found "SOON"`,
    ],
    [
      'ttft-factor',
      'instance_lifecycle:\n  warm_up_ttft_factor: 0.5\n',
      (p) => `${p}:2 instance_lifecycle.warm_up_ttft_factor: expected a number >= 1 (0 = default, 1), found 0.5`,
    ],
  ])('%s.yaml', ([name, text, message], { expect }) => {
    const p = file(`${name}.yaml`, text);
    return rejects(expect, [...RUN, '--policy-config', p], message(p));
  });

  it('a flag against a file value names both', ({ expect }) => {
    const p = file('max.yaml', 'autoscaler:\n  interval_us: 1000000\n  max_replicas: 2\n');
    return rejects(expect, [...RUN, '--policy-config', p, '--autoscaler-min', '5'], `--autoscaler-min: expected at most ${p}:3 autoscaler.max_replicas (2), found 5`);
  });

  it('on replay too', ({ expect }) => {
    const p = file('replay-min-over-max.yaml', 'autoscaler:\n  min_replicas: 3\n  max_replicas: 2\n');
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    return rejects(expect, ['replay', '--quiet', '--trace', trace, '--policy-config', p], `${p}:2 autoscaler.min_replicas: expected min_replicas <= max_replicas (2), found 3`);
  });
});

describe.concurrent('bad autoscaling flags: exit 2, the flag, expected and found', () => {
  const DURATION = 'expected a duration with its unit: us, ms, s or m (e.g. "30s", "2m", "500ms"; a bare 0 is none)';
  const ON = 'expected the autoscaler on (--autoscaler-enabled, --model-autoscaler-interval-us > 0, or autoscaler.interval_us > 0 in --policy-config)';
  const bad = file('bad-autoscaler.mjs', 'export default () => ({ name: "bad" });\n');
  it.for<readonly [string, readonly string[], string]>([
    ['a duration without its unit', ['--autoscaler-cooldown', '30'], `--autoscaler-cooldown: ${DURATION}, found "30" (no unit)`],
    ['a negative duration', ['--scale-up-window', '-5s'], `--scale-up-window: ${DURATION}, found "-5s"`],
    ['an unknown unit', ['--scale-down-window', '5h'], `--scale-down-window: ${DURATION}, found "5h"`],
    ['a malformed delay', ['--provisioning-delay', 'soon'], `--provisioning-delay: ${DURATION}, found "soon"`],
    ['a negative interval', ['--model-autoscaler-interval-us', '-1'], '--model-autoscaler-interval-us: expected a non-negative number, found "-1"'],
    ['--autoscaler-max 0', ['--autoscaler-enabled', '--autoscaler-max', '0'], '--autoscaler-max: expected a positive integer, found "0"'],
    ['a warm-up factor under 1', ['--warmup-ttft-factor', '0.5'], '--warmup-ttft-factor: expected a number >= 1 (1 = no slowdown), found "0.5"'],
    ['an unknown drain policy', ['--autoscaler-enabled', '--drain-policy', 'soon'], '--drain-policy: expected one of wait, immediate, redirect, found "soon"'],
    ['min over max', ['--autoscaler-enabled', '--autoscaler-min', '4', '--autoscaler-max', '2'], '--autoscaler-min: expected at most --autoscaler-max (2), found 4'],
    ['an autoscaler setting with the autoscaler off', ['--autoscaler-max', '3'], `--autoscaler-max: ${ON}, found no interval (off by default)`],
    ['a drain policy with the autoscaler off', ['--model-autoscaler-interval-us', '0', '--drain-policy', 'wait'], `--drain-policy: ${ON}, found --model-autoscaler-interval-us 0`],
    [
      '--autoscaler-enabled beside an interval of 0',
      ['--autoscaler-enabled', '--model-autoscaler-interval-us', '0'],
      '--autoscaler-enabled: expected no --model-autoscaler-interval-us 0 beside it (0 turns the autoscaler off), found --model-autoscaler-interval-us 0',
    ],
    [
      'an unknown autoscaler',
      ['--autoscaler-enabled', '--autoscaler-policy', 'bogus'],
      `--autoscaler-policy: expected ${BUILTIN_AUTOSCALERS.length > 0 ? `one of ${BUILTIN_AUTOSCALERS.join(', ')}, or ` : ''}an ES module path (./autoscaler.mjs), found "bogus"`,
    ],
    ['a module that does not exist', ['--autoscaler-enabled', '--autoscaler-policy', './no-such-autoscaler.mjs'], '--autoscaler-policy: expected a policy name or an existing ES module path, found "./no-such-autoscaler.mjs"'],
    ['a module without evaluate()', ['--autoscaler-enabled', '--autoscaler-policy', bad], `--autoscaler-policy ${bad}: expected an autoscaler policy object with a string "name" and an evaluate() method, found ["name"]`],
  ])('%s', ([_what, args, message], { expect }) => rejects(expect, [...RUN, ...args], message));

  it('replay takes the flags too', ({ expect }) => {
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    return rejects(expect, ['replay', '--quiet', '--trace', trace, '--autoscaler-max', '3'], `--autoscaler-max: ${ON}, found no interval (off by default)`);
  });
});
