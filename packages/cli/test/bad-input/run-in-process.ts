import { main } from '../../src/main.js';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/**
 * Runs `blis args` in this process, capturing what it writes. Starting a process per case costs
 * about a second here; a corpus of hundreds of cases runs in-process instead. Cases run one at a
 * time (the streams are process-wide).
 */
export async function runInProcess(args: readonly string[]): Promise<CliOutcome> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (sink: string[]): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    }) as Write;
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  let code: number;
  try {
    code = await main(args);
  } catch (e) {
    // main() reports every error itself; reaching here is a bug in the CLI, shown as cli.ts would.
    err.push(`blis: internal error: ${String((e as Error)?.stack ?? e)}\n`);
    code = 1;
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}
