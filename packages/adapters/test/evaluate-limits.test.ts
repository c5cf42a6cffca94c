import { describe, expect, it } from 'vitest';
import { EvalRequestError, evaluate } from '../src/index.js';

// A run past the limits of docs/limits.md is a configuration refusal like any other: the request's
// fault when its base config alone passes them, answered before anything is allocated.

const request = (base: Record<string, unknown>) => ({
  protocol: 'blis-eval/1',
  candidate: { kind: 'policy-yaml', text: 'routing:\n  policy: round-robin\n' },
  base_config: base,
  scenarios: [{ id: 'small', workload: { kind: 'synthetic', numRequests: 10, rate: 8 }, seeds: [1] }],
  objectives: { weights: { throughput: 1 } },
  trace: 'none',
});

describe('evaluate: run limits', () => {
  it('answers a base config of 10^8 instances as the request\'s fault, stating the limit', async () => {
    const e = await evaluate(request({ numInstances: 100_000_000 })).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(EvalRequestError);
    const [issue] = (e as EvalRequestError).issues;
    expect(issue.where).toMatch(/^request\.scenarios\[0\]/);
    expect(issue.found).toBe('config numInstances: expected at most 10000 instances, found 100000000');
  });
});
