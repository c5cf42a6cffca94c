import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { evaluateCli } from './blis-process.js';

// A one-shot `blis evaluate` of a candidate module read whole from stdin is answered by the
// launcher and the thread it started (src/launch/launcher-evaluate.ts), without the CLI; every
// other case is the command's. Either way the answer is the command's: compared here with the
// same request read by the command itself (`--request FILE`, which the launcher leaves alone).

const request = (candidate: object, workload: object = { kind: 'synthetic', numRequests: 30, rate: 5 }, trace = 'summary') =>
  JSON.stringify({
    protocol: 'blis-eval/1',
    candidate,
    base_config: { numInstances: 2 },
    scenarios: [{ id: 's', workload, seeds: [7] }],
    objectives: { weights: { p99_ttft: 1 } },
    trace,
  });
const js = (route: string) => ({ kind: 'policy-module', language: 'javascript', text: `export default () => ({ name: 'r', route(req) { ${route} } });` });
const GOOD = request({ kind: 'policy-module', language: 'typescript', text: "export default () => ({ name: 'r', route: (req: { id: string }) => ({ instance: Number(req.id) % 2, reason: 'parity' }) });" });
const PRINTS_THEN_EXITS = request(js("console.log('routing', req.id); if (req.id === '3') process.exit(4); return { instance: 0, reason: 'x' };"));
const BROKEN = request({ kind: 'policy-module', language: 'typescript', text: 'export default () => ({ name: ' });
const MALFORMED = request(js("return { instance: 0, reason: 'x' };"), { kind: 'synthetic', numRequests: -5, rate: 5 });
const LARGE = request(js("return { instance: 0, reason: 'x' };"), { kind: 'synthetic', numRequests: 2_000_000, rate: 5000 }, 'none');

const work = mkdtempSync(join(tmpdir(), 'blis-launcher-evaluate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
/** The same request through the command itself. */
function fromFile(text: string, args: string[] = [], env: Record<string, string> = {}) {
  const file = join(work, `request-${n++}.json`);
  writeFileSync(file, text);
  return { file, run: evaluateCli(['--request', file, ...args], '', env) };
}
const mainCaches = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((f) => /^blis-.*-evaluate\.v8cache$/.test(f));
  } catch {
    return [];
  }
};

describe.skipIf(inject('blisTestBin') === '')('one-shot evaluate of a candidate module, answered from the launcher', () => {
  it('answers the bytes the command answers, without loading the CLI (whose code cache it never writes)', async () => {
    const cache = join(work, 'cache-good');
    const launcher = await evaluateCli([], GOOD, { NODE_COMPILE_CACHE: cache });
    expect(launcher.code, launcher.stderr).toBe(0);
    expect(JSON.parse(launcher.stdout).status).toBe('ok');
    expect(launcher.stderr).toBe('');
    expect(mainCaches(cache)).toEqual([]);
    const command = await fromFile(GOOD, [], { NODE_COMPILE_CACHE: cache }).run;
    expect(command).toEqual(launcher);
    // The command ran the CLI: its cache is there now, so the check above can see one.
    expect(mainCaches(cache)).toHaveLength(1);
  }, 60_000);

  it("a candidate that ends its thread: the command's answer, its output shown once", async () => {
    const launcher = await evaluateCli([], PRINTS_THEN_EXITS);
    const command = await fromFile(PRINTS_THEN_EXITS).run;
    expect(launcher.code, launcher.stderr).toBe(0);
    expect(JSON.parse(launcher.stdout).error.issues[0].found).toBe('ended the evaluation (process.exit(4))');
    expect(launcher).toEqual(command);
    expect(launcher.stderr.match(/^routing \d+$/gm)).toEqual(['routing 0', 'routing 1', 'routing 2', 'routing 3']);
  }, 60_000);

  it('a candidate that does not compile, and runs over the memory limits, are answered or refused as the command does', async () => {
    const same = async (text: string, args: string[], env: Record<string, string>) => {
      const launcher = await evaluateCli(args, text, env);
      const { file, run } = fromFile(text, args, env);
      const command = await run;
      expect(launcher).toEqual({ ...command, stderr: command.stderr.replaceAll(file, 'stdin') });
      return launcher;
    };
    expect(JSON.parse((await same(BROKEN, [], {})).stdout).status).toBe('invalid_candidate');
    // Over the machine's limit: refused before it runs (exit 2), the limit named.
    const machine = await same(LARGE, [], { BLIS_MEMORY_LIMIT: '200000000' });
    expect(machine.code).toBe(2);
    expect(machine.stderr).toContain('BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway');
    // Over the thread's heap: the heap the launcher gave the thread is the one named.
    const heap = await same(LARGE, [], { BLIS_EVAL_SANDBOX_HEAP_MB: '16' });
    expect(heap.code).toBe(2);
    expect(heap.stderr).toContain("the evaluation sandbox's heap");
    // --ignore-memory-limit: no limit is sent, so the large run is not refused for memory.
    const ignored = await same(request(js("return { instance: 0, reason: 'x' };"), { kind: 'synthetic', numRequests: 40, rate: 5 }, 'none'), ['--ignore-memory-limit'], { BLIS_MEMORY_LIMIT: '1' });
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(JSON.parse(ignored.stdout).status).toBe('ok');
  }, 120_000);

  it('a candidate the launcher compiles answers as the one the thread compiles (--request FILE): JavaScript, the language left out, imports', async () => {
    const route = "route: (req: { id: string }, state: { instances: unknown[] }) => ({ instance: Number(req.id) % state.instances.length, reason: 'mod' })";
    const texts = [
      request(js("return { instance: Number(req.id) % 2, reason: 'js' };")),
      request({ kind: 'policy-module', text: `export default () => ({ name: 'r', ${route} });` }),
      request({ kind: 'policy-module', language: 'typescript', text: `import { PolicyError } from '@blis/policies';\nimport { EventEmitter } from 'node:events';\nexport default () => ({ name: String(typeof PolicyError) + String(typeof EventEmitter), ${route} });` }),
      // Not found when compiled: the launcher sends no script, the thread says what it finds.
      request({ kind: 'policy-module', language: 'typescript', text: `import { x } from './nowhere.js';\nexport default () => ({ name: x, ${route} });` }),
    ];
    const statuses: string[] = [];
    for (const text of texts) {
      const launcher = await evaluateCli([], text);
      const { file, run } = fromFile(text);
      const command = await run;
      expect(launcher).toEqual({ ...command, stderr: command.stderr.replaceAll(file, 'stdin') });
      statuses.push(JSON.parse(launcher.stdout).status);
    }
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'invalid_candidate']);
  }, 120_000);

  it('a malformed request, or a malformed environment, is refused by the command (exit 2, nothing on stdout)', async () => {
    const bad = await evaluateCli([], MALFORMED);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    const { file, run } = fromFile(MALFORMED);
    expect(bad.stderr).toBe((await run).stderr.replace(file, 'stdin'));
    expect(bad.stderr).toMatch(/^blis: stdin request\.scenarios\[0\].*numRequests: expected a number > 0, found -5\n$/);
    const env = await evaluateCli([], GOOD, { BLIS_MEMORY_LIMIT: 'lots' });
    expect(env).toEqual({ code: 2, stdout: '', stderr: 'blis: BLIS_MEMORY_LIMIT: expected a positive whole number of bytes, found "lots"\n' });
  }, 60_000);
});
