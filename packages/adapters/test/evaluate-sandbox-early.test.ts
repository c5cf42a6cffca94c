import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxThreadUrl } from '../src/evaluate/sandbox/sandbox-file.js';
import { EvaluateSandbox, evaluate } from '../src/index.js';
import type { EarlySandboxThread } from '../src/internal.js';
import { FIRST, moduleRequest, routerModule } from './sandbox-requests.js';

// A sandbox thread started ahead of the sandbox (the `blis` launcher's, while the CLI loads) is
// taken by the first sandbox that needs a thread, when it has that sandbox's heap; otherwise, or
// when no request needs it, it is ended.

const EXIT = routerModule("if (req.id === '1') process.exit(3); return { instance: 0, reason: 'x' };");
const YAML = { ...moduleRequest(FIRST), candidate: { kind: 'policy-yaml', text: 'routing:\n  policy: round-robin\n' } };

const g = globalThis as { __blisEarlySandbox?: EarlySandboxThread };

/** Lends a thread as the launcher does (packages/cli/src/launch/early-sandbox.ts), counting the answers it sends. */
function lend(heapMb: number): EarlySandboxThread & { answers: number; exited: Promise<unknown> } {
  const worker = new Worker(sandboxThreadUrl(), { stdout: true, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  const early = { worker, heapMb, ready: false, ended: false, answers: 0, exited: once(worker, 'exit') };
  worker.on('message', (m: { kind?: string }) => {
    if (m.kind === 'ready') early.ready = true;
    if (m.kind === 'response') early.answers++;
  });
  worker.on('error', () => {
    early.ended = true;
  });
  worker.on('exit', () => {
    early.ended = true;
  });
  worker.unref();
  g.__blisEarlySandbox = early;
  return early;
}

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((r) => setTimeout(r, 10));
}

afterEach(async () => {
  await g.__blisEarlySandbox?.worker.terminate();
  delete g.__blisEarlySandbox;
});

describe('EvaluateSandbox with a thread started ahead of it', () => {
  it('takes the lent thread of its heap: the answer comes from that thread, the same as evaluate()', async () => {
    const early = lend(128);
    const sandbox = new EvaluateSandbox({ heapMb: 128 });
    try {
      const r = await sandbox.evaluate(moduleRequest(FIRST));
      expect(JSON.stringify(r)).toBe(JSON.stringify(await evaluate(moduleRequest(FIRST))));
      expect(early.answers).toBe(1);
      expect(g.__blisEarlySandbox).toBeUndefined();
      expect(early.ended).toBe(false);
    } finally {
      await sandbox.close();
    }
    await early.exited;
  }, 60_000);

  it('keeps what the lent thread said before it was taken: once it has loaded, its end is the candidate’s doing', async () => {
    const early = lend(128);
    await until(() => early.ready);
    const sandbox = new EvaluateSandbox({ heapMb: 128 });
    try {
      const r = await sandbox.evaluate(moduleRequest(EXIT));
      expect(r.status).toBe('invalid_candidate');
      expect(r.error?.issues[0].found).toBe('ended the evaluation (process.exit(3))');
      // The next request gets a thread of the sandbox's own.
      expect((await sandbox.evaluate(moduleRequest(FIRST))).status).toBe('ok');
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('ends a lent thread of another heap, or one that has ended, and starts its own', async () => {
    for (const spoil of ['heap', 'ended'] as const) {
      const early = lend(spoil === 'heap' ? 96 : 128);
      if (spoil === 'ended') await early.worker.terminate();
      const sandbox = new EvaluateSandbox({ heapMb: 128 });
      try {
        expect((await sandbox.evaluate(moduleRequest(FIRST))).status).toBe('ok');
        expect(early.answers).toBe(0);
        expect(g.__blisEarlySandbox).toBeUndefined();
        await early.exited;
      } finally {
        await sandbox.close();
      }
    }
  }, 60_000);

  it('ends the lent thread at close() when no request needed it; requests without code never take it', async () => {
    const early = lend(128);
    const sandbox = new EvaluateSandbox({ heapMb: 128 });
    expect((await sandbox.evaluate(YAML)).status).toBe('ok');
    expect(g.__blisEarlySandbox).toBe(early);
    await sandbox.close();
    expect(early.ended).toBe(true);
    expect(early.answers).toBe(0);
    expect(g.__blisEarlySandbox).toBeUndefined();
  }, 60_000);
});
