import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPolicyRegistry } from '@blis/policies';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hasRawControl, mutate, mutationsArb } from '../../../../tools/test-support/input-mutations.js';
import { checkPolicyBundle } from '../../src/config/policy-bundle-check.js';
import { extractBundleModules } from '../../src/policy-modules/bundle-modules.js';
import { UsageError, type UsageIssue, formatIssue } from '../../src/errors/usage-error.js';
import { readYamlFile } from '../../src/inputs/yaml-file.js';
import { runInProcess } from './run-in-process.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Policy files (`--policy-config`, the policy bundle YAML) mutated from valid ones: accepted, or
// refused with issues that name the file, each line bounded and free of raw control characters.

const dir = mkdtempSync(join(tmpdir(), 'blis-policy-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLES = ['policy-config.yaml', 'weighted-routing.yaml', 'autoscale-demo-policy.yaml', 'phase2-autoscaler.yaml'].map((f) =>
  readFileSync(new URL(`../../../../examples/workloads/${f}`, import.meta.url), 'utf8'),
);

/** Longest line accepted: a temporary path, a field path, an expectation, a 100-character excerpt. */
const MAX_LINE = 500;

let fileNo = 0;
function written(text: string): string {
  const path = join(dir, `${fileNo++}-policy.yaml`);
  writeFileSync(path, text);
  return path;
}

function checkIssues(issues: readonly UsageIssue[], path: string): void {
  expect(issues.length).toBeGreaterThan(0);
  expect(issues.length).toBeLessThanOrEqual(25);
  for (const i of issues) {
    const line = formatIssue(i);
    expect(i.where.startsWith(path), line).toBe(true);
    expect(line.length, line.slice(0, 2000)).toBeLessThanOrEqual(MAX_LINE);
    expect(hasRawControl(line), line).toBe(false);
  }
}

describe('policy file reader under fuzzing', () => {
  it('reads and validates, or refuses with located, bounded issues (500 mutated files)', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), mutationsArb(true), (policy, ms) => {
        const path = written(mutate(policy, ms));
        try {
          const issues: UsageIssue[] = [];
          const b = extractBundleModules(readYamlFile(path, 'policy configuration'), issues);
          if (issues.length > 0) throw new UsageError(issues);
          checkPolicyBundle(b, defaultPolicyRegistry);
          seen.accepted++;
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          checkIssues(e.issues, path);
          seen.refused++;
        }
      }),
      { numRuns: propertyRuns(500) },
    );
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('through `blis run`: exit 0, or exit 2 with nothing on stdout and one located line per problem (30 files)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...EXAMPLES.slice(0, 2)), mutationsArb(true), async (policy, ms) => {
        const path = written(mutate(policy, ms));
        const r = await runInProcess(['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '2', '--policy-config', path]);
        expect(r.stderr).not.toMatch(/internal error|^\s+at .+:\d+:\d+\)?$/m);
        expect([0, 2]).toContain(r.code);
        if (r.code === 2) {
          expect(r.stdout).toBe('');
          for (const l of r.stderr.trimEnd().split('\n')) {
            expect(l, r.stderr).toMatch(/^blis: /);
            expect(l.length, l.slice(0, 2000)).toBeLessThanOrEqual(MAX_LINE);
          }
        }
      }),
      { numRuns: propertyRuns(30) },
    );
  });
});
