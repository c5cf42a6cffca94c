import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { SANDBOX_HEAP_MB } from '@blis/adapters/internal';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_SANDBOX_HEAP_MB, SANDBOX_HEAP_ENV, sandboxHeapMb } from '../src/launch/sandbox-heap.js';
import { evaluateCli } from './blis-process.js';

// A cold `blis evaluate`: the launcher starts the sandbox's thread while the CLI loads, with the
// heap the command will ask for, and the thread's code loads through the code cache like the
// CLI's own (src/launch/).

describe('the sandbox heap the launcher and the command agree on', () => {
  it("defaults to @blis/adapters' sandbox heap, at most this process's own", () => {
    expect(DEFAULT_SANDBOX_HEAP_MB).toBe(SANDBOX_HEAP_MB);
    const own = Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20);
    expect(sandboxHeapMb({})).toEqual({ mb: Math.min(SANDBOX_HEAP_MB, own) });
    expect(sandboxHeapMb({ [SANDBOX_HEAP_ENV]: '' })).toEqual({ mb: Math.min(SANDBOX_HEAP_MB, own) });
  });

  it('takes a whole number of MiB of at least 16 from the environment, and names anything else', () => {
    expect(sandboxHeapMb({ [SANDBOX_HEAP_ENV]: '16' })).toEqual({ mb: 16 });
    expect(sandboxHeapMb({ [SANDBOX_HEAP_ENV]: '8192' })).toEqual({ mb: 8192 });
    for (const bad of ['15', 'lots', '1.5', '-64', ' 64', '1e3', '99999999999999999999']) expect(sandboxHeapMb({ [SANDBOX_HEAP_ENV]: bad })).toEqual({ malformed: bad });
  });
});

const request = (candidate: object) =>
  JSON.stringify({
    protocol: 'blis-eval/1',
    candidate,
    base_config: { numInstances: 2 },
    scenarios: [{ id: 's', workload: { kind: 'synthetic', numRequests: 30, rate: 5 }, seeds: [7] }],
    objectives: { weights: { p99_ttft: 1 } },
    trace: 'summary',
  });
const MODULE = request({ kind: 'policy-module', language: 'typescript', text: "export default () => ({ name: 'r', route: (req: { id: string }) => ({ instance: Number(req.id) % 2, reason: 'parity' }) });" });
const BROKEN = request({ kind: 'policy-module', language: 'typescript', text: 'export default () => ({ name: ' });
const YAML = request({ kind: 'policy-yaml', text: 'routing:\n  policy: round-robin\n' });

const work = mkdtempSync(join(tmpdir(), 'blis-evaluate-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const threadCaches = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((f) => /^blis-.*-evaluate-sandbox\.v8cache$/.test(f));
  } catch {
    return [];
  }
};

// The binary only: from the sources (BLIS_TEST_CLI=sources) nothing is cached.
describe.skipIf(inject('blisTestBin') === '')('the sandbox thread of the binary', () => {
  it('leaves a code cache after its first good answer, and answers the same bytes from it', async () => {
    const dir = join(work, 'cycle');
    const env = { NODE_COMPILE_CACHE: dir };
    const first = await evaluateCli([], MODULE, env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).status).toBe('ok');
    const [cache] = threadCaches(dir);
    expect(threadCaches(dir)).toHaveLength(1);
    const written = statSync(join(dir, cache)).mtimeMs;
    const bytes = readFileSync(join(dir, cache));

    const second = await evaluateCli([], MODULE, env);
    expect(second).toEqual(first);
    // Used, not written again (a cache V8 refused would be replaced).
    expect(statSync(join(dir, cache)).mtimeMs).toBe(written);
    expect(readFileSync(join(dir, cache)).equals(bytes)).toBe(true);

    const uncached = await evaluateCli([], MODULE, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(uncached).toEqual(first);
  }, 60_000);

  it('leaves none when the thread answered nothing good, or was never needed', async () => {
    const broken = join(work, 'broken');
    const r = await evaluateCli([], BROKEN, { NODE_COMPILE_CACHE: broken });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('invalid_candidate');
    expect(threadCaches(broken)).toEqual([]);

    const yaml = join(work, 'yaml');
    const y = await evaluateCli([], YAML, { NODE_COMPILE_CACHE: yaml });
    expect(y.code, y.stderr).toBe(0);
    expect(JSON.parse(y.stdout).status).toBe('ok');
    expect(threadCaches(yaml)).toEqual([]);
  }, 60_000);

  it('a heap set by the environment is the heap of the thread started ahead', async () => {
    const hoards = request({ kind: 'policy-module', language: 'javascript', text: "export default () => ({ name: 'r', route(req) { const a = []; for (;;) a.push(new Array(1e5).fill(req.id)); } });" });
    const r = await evaluateCli([], hoards, { [SANDBOX_HEAP_ENV]: '48' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).error.issues[0].found).toBe("ran out of the evaluation's heap (48 MiB): it allocates without bound");
  }, 60_000);
});
