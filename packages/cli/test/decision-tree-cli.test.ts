import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis, ROOT, rejects } from './blis-process.js';

// Decision trees on the command line: each example tree runs through `blis run` and changes the
// result against the default policy of its flag; bad trees, trees given to the wrong flag and
// YAML given to flags that take no tree exit 2 with every located issue and nothing on stdout.

const tmp = mkdtempSync(join(tmpdir(), 'blis-dtree-'));
const EXAMPLES = join(ROOT, 'examples', 'decision-trees');
const example = (name: string) => join(EXAMPLES, name);
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

type Result = Record<string, unknown> & { instances: { injected_requests: number; e2e_mean_ms: number }[] };

async function run(args: readonly string[]): Promise<{ stdout: string; result: Result }> {
  const r = await blis(['run', '--quiet', '--num-requests', '50', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, result: JSON.parse(r.stdout) as Result };
}

describe('blis run with decision-tree policies', () => {
  it('routing: the example tree spreads requests differently from round-robin, deterministically', async () => {
    const base = ['--num-instances', '4', '--rate', '40'];
    const [plain, tree, again] = await Promise.all([
      run(base),
      run([...base, '--routing-policy', example('routing.yaml')]),
      run([...base, '--routing-policy', example('routing.yaml')]),
    ]);
    expect(tree.stdout).toBe(again.stdout);
    // Round-robin deals requests in turn; the tree sends each to the least loaded instance.
    expect(plain.result.instances.map((i) => i.injected_requests)).toEqual([13, 13, 12, 12]);
    expect(tree.result.instances.map((i) => i.e2e_mean_ms)).not.toEqual(plain.result.instances.map((i) => i.e2e_mean_ms));
    expect(tree.result.e2e_mean_ms).not.toBe(plain.result.e2e_mean_ms);
  });

  it('admission: the example tree sheds long prompts under load', async () => {
    const base = ['--num-instances', '4', '--rate', '40'];
    const [plain, tree] = await Promise.all([run(base), run([...base, '--admission-policy', example('admission.yaml')])]);
    expect(plain.result.rejected_requests).toBe(0);
    expect(tree.result.rejected_requests).toBeGreaterThan(0);
    expect(tree.result.completed_requests).toBe(50 - (tree.result.rejected_requests as number));
  });

  it('priority: under priority-fcfs the example tree reorders the queue', async () => {
    const base = ['--num-instances', '1', '--rate', '40', '--max-num-seqs', '4', '--scheduler', 'priority-fcfs'];
    const [plain, tree] = await Promise.all([run(base), run([...base, '--priority-policy', example('priority.yaml')])]);
    expect(tree.result.completed_requests).toBe(50);
    expect(tree.result.ttft_mean_ms).not.toBe(plain.result.ttft_mean_ms);
  });

  it('autoscaler: the example tree scales the deployment where the default holds', async () => {
    const base = ['--num-instances', '1', '--rate', '40', '--max-num-seqs', '4', '--autoscaler-enabled', '--model-autoscaler-interval-us', '1000000'];
    const [plain, tree] = await Promise.all([run(base), run([...base, '--autoscaler-policy', example('autoscaler.yaml')])]);
    const scaled = tree.result.autoscaling as { policy: string; scale_up_events: number; peak_replicas: number };
    expect(scaled.policy).toBe('decision-tree');
    expect(scaled.scale_up_events).toBeGreaterThan(0);
    expect(scaled.peak_replicas).toBeGreaterThan((plain.result.autoscaling as { peak_replicas: number }).peak_replicas);
  });
});

describe('blis run with a bad decision tree', () => {
  const RUN = ['run', '--num-requests', '5'];

  it('prints every located issue', async () => {
    const bad = file(
      'bad.yaml',
      `kind: routing
tree:
  if: {signal: request.input_tokens, op: ">", value: 2048}
  then: {route: least, by: instance.kv_utilization}
  else:
    if: {signal: request.slo_clas, op: in, value: [critical]}
    then: {route: weighted, scorers: {queue-depth: 0}}
    else: {route: least, by: instance.queue_depth}
`,
    );
    await rejects(
      expect,
      [...RUN, '--routing-policy', bad],
      new RegExp(`^blis: ${bad}:6 tree\\.else\\.if\\.signal: expected a routing signal: request\\.input_tokens, .*, found "request\\.slo_clas"$`),
      `${bad}:7 tree.else.then.scorers.queue-depth: expected a finite weight > 0, found 0`,
    );
  });

  it('refuses a tree of another kind, and YAML for flags that take no tree', async () => {
    await rejects(expect, [...RUN, '--routing-policy', example('admission.yaml')], `${example('admission.yaml')}:2 kind: expected routing (a routing tree is wanted here), found "admission"`);
    await rejects(
      expect,
      [...RUN, '--autoscaler-enabled', '--autoscaler-policy', example('routing.yaml')],
      `${example('routing.yaml')}:3 kind: expected autoscaler (an autoscaler tree is wanted here), found "routing"`,
    );
    await rejects(
      expect,
      [...RUN, '--scheduler', example('priority.yaml')],
      `--scheduler ${example('priority.yaml')}: expected an ES module (decision trees are admission, priority, routing or autoscaler policies), found a YAML file`,
    );
  });

  it('names a missing file and a YAML syntax error with its line', async () => {
    await rejects(expect, [...RUN, '--admission-policy', 'no-such-tree.yaml'], '--admission-policy: expected an existing decision-tree YAML file, found "no-such-tree.yaml"');
    const broken = file('broken.yml', 'kind: priority\ntree:\n  priority: [1\n');
    await rejects(expect, [...RUN, '--priority-policy', broken], new RegExp(`^blis: ${broken}:\\d \\(document\\): expected valid YAML \\(.*\\), found .+`));
  });
});
