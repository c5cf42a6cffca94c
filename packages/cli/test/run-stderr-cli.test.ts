import { describe, it } from 'vitest';
import { blis } from './blis-process.js';

// What blis run writes on stderr besides progress. BLIS's --log flag: the example policy file tells users to run with `--log info` to see which
// policies are active (examples/workloads/policy-config.yaml).

const RUN = ['run', '--num-requests', '3'];

describe('--log', () => {
  it('info lists the policies the policy file set, before the summary; stdout is the same as at warn', async ({ expect }) => {
    const info = await blis([...RUN, '--policy-config', 'examples/workloads/policy-config.yaml', '--log', 'info']);
    const warn = await blis([...RUN, '--policy-config', 'examples/workloads/policy-config.yaml']);
    expect(info.code, info.stderr).toBe(0);
    const lines = info.stderr.trim().split('\n');
    expect(lines[0]).toBe('blis: policies: admission always-admit, priority constant, routing round-robin, scheduler fcfs');
    expect(lines[1]).toMatch(/^blis: 1 instance\(s\), /);
    expect(warn.stderr).not.toMatch(/policies/);
    expect(info.stdout).toBe(warn.stdout);
  });

  it('debug names the weighted default profile and the parameters given', async ({ expect }) => {
    const r = await blis([...RUN, '--routing-policy', 'weighted', '--admission-policy', 'token-bucket', '--policy-param', 'admission.capacity=5', '--log', 'debug']);
    expect(r.stderr.split('\n')[0]).toBe(
      'blis: policies: admission token-bucket (capacity: 5), priority constant, routing weighted[precise-prefix-cache:2,queue-depth:1,kv-utilization:1], scheduler fcfs',
    );
  });

  it('error keeps stderr empty, as --quiet does', async ({ expect }) => {
    const r = await blis([...RUN, '--log', 'error']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).completed_requests).toBe(3);
  });
});

describe('the overload note', () => {
  it('says so when one instance cannot keep up, and not when four can', async ({ expect }) => {
    const load = ['run', '--num-requests', '1000', '--rate', '40'];
    const one = await blis(load);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toMatch(/^blis: note: overloaded: requests waited up to \d+\.\d s \(p99\) for their first step, mean TTFT \d+\.\d s; the instance could not keep up/m);
    const four = await blis([...load, '--num-instances', '4']);
    expect(four.stderr).not.toMatch(/overloaded/);
    expect((await blis([...load, '--quiet'])).stderr).toBe('');
  });
});

describe('a horizon before the first arrival', () => {
  it('runs (exit 0) and warns that nothing arrived', async ({ expect }) => {
    // At 1e-6 req/s the first arrival is days away; the horizon is one simulated second.
    const r = await blis(['run', '--num-requests', '5', '--rate', '1e-6', '--horizon', '1000000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('blis: warning: no request arrived before the horizon (1000000 µs): the result is of an empty run');
    expect(JSON.parse(r.stdout).injected_requests).toBe(0);
    const some = await blis(['run', '--num-requests', '5', '--rate', '10', '--horizon', '100000000']);
    expect(some.stderr).not.toContain('no request arrived');
  });
});
