import { appendFileSync, readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * A vitest reporter for unattended runs: a test stuck in a synchronous loop blocks its worker, so
 * vitest's own timeout never fires and the run only ends at CI's step limit, without saying
 * where. This one notes when each test file last reported progress; a file silent for longer
 * than `BLIS_TEST_HANG_MINUTES` is named (with the last test it finished and the fast-check
 * seed), appended to `BLIS_TEST_HANG_FILE` for CI's summary, and the run is stopped.
 * Off unless `BLIS_TEST_HANG_MINUTES` is set.
 */
export default class HangWatchdog implements Reporter {
  private readonly limitMs = Number(process.env.BLIS_TEST_HANG_MINUTES ?? 0) * 60_000;
  private readonly files = new Map<string, { lastUs: number; lastDone: string | undefined }>();
  private timer: NodeJS.Timeout | undefined;

  onInit(): void {
    if (!(this.limitMs > 0)) return;
    this.timer = setInterval(() => this.check(), Math.min(30_000, this.limitMs / 4));
    this.timer.unref();
  }

  onTestModuleStart(m: TestModule): void {
    this.files.set(m.moduleId, { lastUs: Date.now(), lastDone: undefined });
  }

  onTestCaseReady(t: TestCase): void {
    const f = this.files.get(t.module.moduleId);
    if (f !== undefined) f.lastUs = Date.now();
  }

  onTestCaseResult(t: TestCase): void {
    const f = this.files.get(t.module.moduleId);
    if (f === undefined) return;
    f.lastUs = Date.now();
    f.lastDone = t.fullName;
  }

  onTestModuleEnd(m: TestModule): void {
    this.files.delete(m.moduleId);
  }

  onTestRunEnd(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private check(): void {
    const now = Date.now();
    const hung = [...this.files].filter(([, f]) => now - f.lastUs > this.limitMs);
    if (hung.length === 0) return;
    const seed = process.env.BLIS_FC_SEED ? ` (BLIS_FC_SEED=${process.env.BLIS_FC_SEED})` : '';
    const lines = hung.map(
      ([file, f]) =>
        `hung: ${file.replace(`${process.cwd()}/`, '')}: silent for ${Math.round((now - f.lastUs) / 60_000)} min, ${f.lastDone === undefined ? 'in its first test' : `after "${f.lastDone}"`}${seed}`,
    );
    process.stderr.write(`\n!! ${lines.join('\n!! ')}\n`);
    const out = process.env.BLIS_TEST_HANG_FILE;
    if (out) appendFileSync(out, `${lines.join('\n')}\n`);
    // The stuck workers spin on: end them with the run, so the steps after this one get the CPU.
    for (const pid of childrenOf(process.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    process.exit(1);
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
