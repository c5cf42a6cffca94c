import { formatBytes, looksBinary, readBoundedText } from '@blis/workload/internal';
import { EVAL_REQUEST_MAX_BYTES, invalidRequestResponse, runsCandidateCode } from '@blis/adapters/internal';
import { describeFound, jsonSyntaxProblem, messageText } from '@blis/policies/internal';
import { EVAL_PROTOCOL, EvalRequestError, type EvalResponse, EvaluateSandbox, type EvaluateOptions } from '@blis/adapters';
import { boundedLines } from '../inputs/bounded-lines.js';
import { requireReadable } from '../inputs/input-files.js';
import { memoryLimit } from './machine-memory.js';
import { UsageError } from '../errors/usage-error.js';
import { exitWhenFlushed } from '../output/exit-flushed.js';
import { SANDBOX_HEAP_ENV, sandboxHeapMb } from '../launch/sandbox-heap.js';
import { candidateOutputShown } from '../launch/candidate-output.js';
import { takeStdinHead } from '../launch/stdin-head.js';

/** One response line: compact JSON (a search parses it; it is not for reading). */
function line(response: EvalResponse): string {
  return `${JSON.stringify(response)}\n`;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError([notJson(text, where, e)]);
  }
}

/**
 * Why a request is not JSON, at its line and column (`where` is `stdin`, the file, or `stdin:N`
 * for the Nth line of --serve, whose request is that one line), in our words: V8's name the
 * position differently in each Node version and can quote any amount of the request.
 */
function notJson(text: string, where: string, e: unknown): { where: string; expected: string; found: string } {
  const p = jsonSyntaxProblem(text);
  if (p === undefined) return { where, expected: `one ${EVAL_PROTOCOL} request as JSON`, found: messageText((e as Error).message) };
  const at = /^stdin:\d+$/.test(where) ? `${where}:${p.column}` : `${where}:${p.line}:${p.column}`;
  return { where: at, expected: `one ${EVAL_PROTOCOL} request as JSON: ${p.expected}`, found: p.found };
}

const REQUEST_WHAT = `${EVAL_PROTOCOL} request (JSON)`;

/** The candidate sandbox, with the heap the launcher gave the thread it started ahead (launch/sandbox-heap.ts). */
function sandbox(): EvaluateSandbox {
  const heap = sandboxHeapMb(process.env);
  if ('malformed' in heap) throw new UsageError([{ where: SANDBOX_HEAP_ENV, expected: 'a whole number of MiB, at least 16', found: JSON.stringify(heap.malformed.slice(0, 40)) }]);
  // Quiet when the launcher's run of this request showed the candidate's output already.
  return new EvaluateSandbox({ heapMb: heap.mb, ...(candidateOutputShown() ? { onStdout: () => {} } : {}) });
}

/**
 * `blis evaluate`: one request (stdin, or --request FILE) in, exactly one response line out. A
 * malformed request is the caller's mistake: exit 2, nothing on stdout. A bad candidate is an
 * answer (exit 0). With --serve, one request per stdin line and one response per stdout line,
 * in order, until stdin closes, so that a search pays Node's start-up once.
 */
export async function runEvaluateCommand(opts: { request?: string; serve?: boolean; ignoreMemoryLimit?: boolean }): Promise<void> {
  const options = { memoryLimit: memoryLimit(opts.ignoreMemoryLimit === true) };
  if (opts.serve === true) {
    if (opts.request !== undefined) throw new UsageError([{ where: '--request', expected: 'no --request with --serve (requests arrive on stdin, one per line)', found: describeFound(opts.request) }]);
    await serve(options);
    // Its input ended and the sandbox's thread is closed: nothing is left but Node's own
    // teardown, which the caller (a search closing its child) would wait for.
    await exitWhenFlushed(0);
  }
  const where = opts.request ?? 'stdin';
  const text = opts.request !== undefined ? readRequestFile(opts.request) : await readStdin();
  if (text.trim() === '') throw new UsageError([{ where, expected: `one ${EVAL_PROTOCOL} request as JSON`, found: 'nothing' }]);
  const request = parseJson(text, where);
  const box = sandbox();
  // A request that runs no candidate code never needs the thread the launcher started: it ends
  // now, instead of loading on beside the evaluation.
  if (!runsCandidateCode(request)) void box.close();
  try {
    // The answer goes out first: ending the sandbox's thread takes a few ms more.
    process.stdout.write(line(await box.evaluate(request, options)));
  } catch (e) {
    if (e instanceof EvalRequestError) throw new UsageError(e.issues.map((i) => ({ ...i, where: `${where} ${i.where}` })));
    throw e;
  } finally {
    await box.close();
  }
}

/** The request file, size-checked before it is read (it is parsed whole) and refused when binary. */
function readRequestFile(path: string): string {
  requireReadable('--request', path, 'JSON file');
  const read = readBoundedText(path, { maxBytes: EVAL_REQUEST_MAX_BYTES, what: REQUEST_WHAT });
  if (!read.ok) throw new UsageError([{ where: path, expected: read.issue.expected, found: read.issue.found }]);
  return read.text;
}

/**
 * stdin up to the request limit: reading stops at the first byte past it. What the launcher read
 * of it already (launch/stdin-head.ts) comes first.
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const tooLong = () => new UsageError([{ where: 'stdin', expected: `a ${REQUEST_WHAT} of at most ${formatBytes(EVAL_REQUEST_MAX_BYTES)}`, found: 'more' }]);
  const head = takeStdinHead();
  for (const chunk of head?.chunks ?? []) {
    bytes += chunk.length;
    chunks.push(chunk);
  }
  if (bytes > EVAL_REQUEST_MAX_BYTES) throw tooLong();
  if (head?.ended !== true) {
    for await (const chunk of process.stdin) {
      bytes += (chunk as Buffer).length;
      if (bytes > EVAL_REQUEST_MAX_BYTES) {
        process.stdin.destroy();
        throw tooLong();
      }
      chunks.push(chunk as Buffer);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (looksBinary(text)) throw new UsageError([{ where: 'stdin', expected: `a ${REQUEST_WHAT} (text)`, found: 'binary data' }]);
  return text;
}

/**
 * The persistent mode. A line that is not a valid request gets a response with status
 * `invalid_request` (the stream must stay one answer per line); blank lines are skipped. A line
 * over the request size limit is answered the same way without being held whole.
 */
async function serve(options: EvaluateOptions): Promise<void> {
  // One thread for the candidates' code, kept across requests (a fresh one after a candidate
  // takes it down), so a search pays its start-up once.
  const box = sandbox();
  let n = 0;
  try {
    for await (const read of boundedLines(process.stdin, EVAL_REQUEST_MAX_BYTES)) {
      n++;
      let response: EvalResponse;
      if ('tooLong' in read) {
        response = invalidRequestResponse([{ where: `stdin:${n}`, expected: `a ${REQUEST_WHAT} of at most ${formatBytes(EVAL_REQUEST_MAX_BYTES)} per line`, found: 'a longer line' }]);
      } else {
        if (read.text.trim() === '') continue;
        try {
          response = await box.evaluate(JSON.parse(read.text), options);
        } catch (e) {
          const issues = e instanceof EvalRequestError ? e.issues : [notJson(read.text, `stdin:${n}`, e)];
          if (!(e instanceof EvalRequestError) && !(e instanceof SyntaxError)) throw e;
          response = invalidRequestResponse(issues);
        }
      }
      process.stdout.write(line(response));
    }
  } finally {
    await box.close();
  }
}
