import { join } from 'node:path';
import { describe, it } from 'vitest';
import { blis, ROOT } from './blis-process.js';

// BLIS's P/D demo (examples/workloads/pd-disaggregation-demo.yaml, copied unchanged; see its
// PROVENANCE.md): the P/D command of its comments, with the file as --policy-config and fewer
// requests (1,000 in the file). Two processes, run concurrently: start-up dominates.

const DEMO = join(ROOT, 'examples', 'workloads', 'pd-disaggregation-demo.yaml');
const N = 100;
const COMMON = ['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--rate', '100', '--num-requests', String(N), '--policy-config', DEMO, '--quiet'];
const PD = ['--prefill-instances', '2', '--decode-instances', '2', '--pd-decider', 'always', '--pd-transfer-bandwidth', '25', '--pd-transfer-base-latency', '0.05'];

describe.concurrent('BLIS pd-disaggregation-demo.yaml as --policy-config', () => {
  let pdRun: ReturnType<typeof blis> | undefined;
  const pdViaFile = () => {
    pdRun ??= blis([...COMMON, ...PD]);
    return pdRun;
  };

  it('the P/D command disaggregates every request', async ({ expect }) => {
    const r = await pdViaFile();
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res.completed_requests).toBe(N);
    expect(res.pd.disaggregated_requests).toBe(N);
    expect(res.pd.local_requests).toBe(0);
    expect(res.pd.transfers_completed).toBe(N);
  });

  it('the file is read: the P/D run is the one its routing section names as flags', async ({ expect }) => {
    const flags = COMMON.filter((a, i) => a !== '--policy-config' && COMMON[i - 1] !== '--policy-config');
    const [viaFile, viaFlags] = await Promise.all([
      pdViaFile(),
      blis([...flags, ...PD, '--routing-policy', 'weighted', '--routing-scorers', 'queue-depth:2,kv-utilization:2']),
    ]);
    expect(viaFlags.code, viaFlags.stderr).toBe(0);
    expect(viaFile.stdout).toBe(viaFlags.stdout);
  });
});

