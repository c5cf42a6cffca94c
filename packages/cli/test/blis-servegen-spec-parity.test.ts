import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// Issue 40: a WorkloadSpec's servegen_data, loaded as BLIS HEAD loads it (the spec's seed, its
// window and drain), gives BLIS f90a1e3a's run: every request's record and every aggregate field
// of its metrics file (fixtures/blis-head-servegen-spec/README.md).

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-servegen-spec');
const tmp = mkdtempSync(join(tmpdir(), 'blis-servegen-spec-'));

describe.concurrent("servegen_data, against BLIS HEAD's runs", () => {
  for (const name of ['language', 'reason'])
    it(`${name}: the same requests, each simulated to the same result`, async () => {
      const out = join(tmp, `${name}.json`);
      const r = await blis(['run', '--model', 'qwen/qwen3-14b', '--workload-spec', join(FIXTURES, `${name}.yaml`), '--total-kv-blocks', '15909', '--metrics-path', out, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      const ours = JSON.parse(readFileSync(out, 'utf8'));
      const reference = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
      expect(ours.requests).toHaveLength(reference.requests.length);
      expect(ours).toEqual(reference);
    });
});
