import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { compileAhead } from '../src/candidate-compile.js';
import { candidateFile } from '../src/evaluate/candidate-build.js';
import { compileCandidate } from '../src/evaluate/candidate-compile.js';
import { evaluateAsHost } from '../src/evaluate/entry.js';
import { sandboxThreadUrl } from '../src/evaluate/sandbox/sandbox-file.js';
import { type EvaluateOptions, evaluate } from '../src/index.js';
import type { SandboxCall, SandboxReply } from '../src/internal.js';
import { FIRST, moduleRequest, routerModule } from './sandbox-requests.js';

// The `blis` launcher compiles a one-shot request's candidate itself and hands the script to the
// sandbox's thread (SandboxCall's `compiled`), which runs it instead of compiling. The script
// handed over here is another module's, so that running it shows in the answer; a text that
// does not compile shows that esbuild was not asked.

const PARITY = routerModule("return { instance: Number(req.id) % 2, reason: 'parity' };");
const BROKEN = 'export default () => ({ name: ';
const TS = "import type { RoutingPolicy } from '@blis/policies';\nexport default (): RoutingPolicy => ({ name: 'r', route: (req) => ({ instance: Number(req.id) % 2, reason: 'ts' }) });";

async function scriptOf(text: string, language: 'typescript' | 'javascript'): Promise<string> {
  return compileCandidate(text, language, candidateFile(language));
}

describe('a candidate compiled ahead (the launcher)', () => {
  it('is compiled byte for byte as the evaluation compiles it, the default language included', async () => {
    expect(await compileAhead({ kind: 'policy-module', language: 'javascript', text: PARITY })).toEqual({ language: 'javascript', text: PARITY, script: await scriptOf(PARITY, 'javascript') });
    expect(await compileAhead({ kind: 'policy-module', language: 'typescript', text: TS })).toEqual({ language: 'typescript', text: TS, script: await scriptOf(TS, 'typescript') });
    expect(await compileAhead({ kind: 'policy-module', text: TS })).toEqual({ language: 'typescript', text: TS, script: await scriptOf(TS, 'typescript') });
  });

  it('is nothing when it cannot be read as the evaluation would, or does not compile (left to the evaluation)', async () => {
    expect(await compileAhead({ kind: 'policy-module', language: 'typescript', text: BROKEN })).toBeUndefined();
    expect(compileAhead({ kind: 'policy-module', language: 'python', text: PARITY })).toBeUndefined();
    expect(compileAhead({ kind: 'policy-module', text: '' })).toBeUndefined();
    expect(compileAhead({ kind: 'policy-yaml', text: 'routing: {}' })).toBeUndefined();
    expect(compileAhead(null)).toBeUndefined();
  });

  it("runs the host's script in place of a compile when it is for the candidate's text and language", async () => {
    const parity = await evaluate(moduleRequest(PARITY));
    const first = await evaluate(moduleRequest(FIRST));
    // The two differ, so the answer tells which module ran.
    expect(parity.combined_score).not.toBe(first.combined_score);
    const script = await scriptOf(PARITY, 'javascript');
    const ran = await evaluateAsHost(moduleRequest(FIRST), { compiled: { language: 'javascript', text: FIRST, script } });
    expect(ran).toEqual(parity);
    // esbuild would refuse this text: the answer is the script's.
    expect(await evaluateAsHost(moduleRequest(BROKEN), { compiled: { language: 'javascript', text: BROKEN, script } })).toEqual(parity);
  });

  it('is ignored for another text or language, and by the public evaluate()', async () => {
    const first = await evaluate(moduleRequest(FIRST));
    const script = await scriptOf(PARITY, 'javascript');
    expect(await evaluateAsHost(moduleRequest(FIRST), { compiled: { language: 'javascript', text: PARITY, script } })).toEqual(first);
    expect(await evaluateAsHost(moduleRequest(FIRST), { compiled: { language: 'typescript', text: FIRST, script } })).toEqual(first);
    const passed = { compiled: { language: 'javascript', text: FIRST, script } } as EvaluateOptions;
    expect(await evaluate(moduleRequest(FIRST), passed)).toEqual(first);
  });

  it("reaches the sandbox's thread with the call", async () => {
    const worker = new Worker(sandboxThreadUrl(), { stdout: true });
    try {
      const replies: SandboxReply[] = [];
      const answered = new Promise<void>((resolve) =>
        worker.on('message', (m: SandboxReply) => {
          replies.push(m);
          if (m.id === 0) resolve();
        }),
      );
      const script = await scriptOf(PARITY, 'javascript');
      worker.postMessage({ id: 0, request: moduleRequest(BROKEN), compiled: { language: 'javascript', text: BROKEN, script } } satisfies SandboxCall);
      await answered;
      const reply = replies.find((r) => r.id === 0);
      expect(reply).toEqual({ id: 0, kind: 'response', response: await evaluate(moduleRequest(PARITY)) });
    } finally {
      await Promise.all([once(worker, 'exit'), worker.terminate()]);
    }
  }, 60_000);
});
