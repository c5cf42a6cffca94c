import { describe, expect, it } from 'vitest';
import { EvaluateSandbox, evaluate } from '../src/index.js';
import { runsCandidateCode } from '../src/internal.js';
import { FIRST, moduleRequest, routerModule } from './sandbox-requests.js';

// The sandbox thread's heap limit: a candidate allocating without bound ends its thread, not the
// process, and is answered invalid_candidate; the next request gets a fresh thread.

const HOARD = routerModule("if (req.id === '1') { const a = []; for (;;) a.push(new Array(1e5).fill(req.id)); } return { instance: 0, reason: 'x' };");

describe('EvaluateSandbox', () => {
  it('only code candidates run in the thread', () => {
    expect(runsCandidateCode(moduleRequest(FIRST))).toBe(true);
    expect(runsCandidateCode({ candidate: { kind: 'policy-yaml', text: '' } })).toBe(false);
    expect(runsCandidateCode(null)).toBe(false);
  });

  it('answers a candidate that exhausts the thread heap invalid_candidate, then the next request as evaluate() would', async () => {
    const sandbox = new EvaluateSandbox({ heapMb: 96 });
    try {
      const hoard = await sandbox.evaluate(moduleRequest(HOARD));
      expect(hoard.status).toBe('invalid_candidate');
      expect(hoard.error?.issues[0].found).toBe("ran out of the evaluation's heap (96 MiB): it allocates without bound");
      const after = await sandbox.evaluate(moduleRequest(FIRST));
      expect(JSON.stringify(after)).toBe(JSON.stringify(await evaluate(moduleRequest(FIRST))));
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
