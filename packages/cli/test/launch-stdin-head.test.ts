import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayNeedSandbox } from '../src/launch/early-sandbox.js';
import { evaluatesStdinOnce } from '../src/launch/stdin-head.js';
import { evaluateCli } from './blis-process.js';

// The launcher reads a one-shot `blis evaluate` request from stdin before the CLI loads
// (src/launch/stdin-head.ts), starts the sandbox's thread only for a request that can need it,
// and the command reads on from what it read.

const STDIN_HEAD = join(import.meta.dirname, '..', 'src', 'launch', 'stdin-head.ts');

/** readStdinHead(max) in a fresh process over a pipe holding `input`, then the rest through process.stdin. */
function headOf(input: string, max: number): Promise<{ head: string; ended: boolean; rest: string }> {
  const program = `import { readStdinHead } from ${JSON.stringify(STDIN_HEAD)};
const h = readStdinHead(${max});
let rest = '';
if (h !== undefined && !h.ended) for await (const c of process.stdin) rest += c;
process.stdout.write(JSON.stringify({ head: Buffer.concat(h?.chunks ?? []).toString(), ended: h?.ended ?? null, rest }));`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))));
    child.stdin?.end(input);
  });
}

describe('readStdinHead', () => {
  it('reads a short stdin to its end', async () => {
    expect(await headOf('{"a": 1}\n', 1024)).toEqual({ head: '{"a": 1}\n', ended: true, rest: '' });
    expect(await headOf('', 1024)).toEqual({ head: '', ended: true, rest: '' });
  }, 30_000);

  it('stops at its limit and leaves the rest to be read on', async () => {
    const input = 'x'.repeat(200_000);
    const r = await headOf(input, 100_000);
    expect(r.ended).toBe(false);
    expect(r.head.length).toBe(100_000);
    expect(r.head + r.rest).toBe(input);
  }, 30_000);
});

describe('which `blis evaluate` the launcher reads ahead for', () => {
  it('one-shot from stdin only', () => {
    expect(evaluatesStdinOnce(['evaluate'])).toBe(true);
    expect(evaluatesStdinOnce(['evaluate', '--ignore-memory-limit'])).toBe(true);
    for (const args of [['evaluate', '--serve'], ['evaluate', '--request', 'r.json'], ['evaluate', '--request=r.json'], ['evaluate', '--help'], ['run'], ['--quiet', 'evaluate']]) expect(evaluatesStdinOnce(args)).toBe(false);
  });

  it('starts the thread unless the whole request was read and no candidate of it is code', () => {
    const read = (text: string, ended = true) => ({ chunks: [Buffer.from(text.slice(0, 7)), Buffer.from(text.slice(7))], ended });
    expect(mayNeedSandbox(undefined)).toBe(true);
    expect(mayNeedSandbox(read('{"candidate": {"kind": "policy-module", "text": ""}}'))).toBe(true);
    expect(mayNeedSandbox(read('{"candidate": {"kind": "components"}}', false))).toBe(true);
    expect(mayNeedSandbox(read('{"candidate": {"kind": "components"}}'))).toBe(false);
    expect(mayNeedSandbox(read('{"candidate": {"kind": "policy-yaml", "text": "routing: {policy: weighted}"}}'))).toBe(false);
  });
});

const request = (text: string) =>
  JSON.stringify({
    protocol: 'blis-eval/1',
    candidate: { kind: 'policy-module', language: 'javascript', text },
    base_config: { numInstances: 2 },
    scenarios: [{ id: 's', workload: { kind: 'synthetic', numRequests: 20, rate: 5 }, seeds: [2] }],
    objectives: { weights: { p99_ttft: 1 } },
    trace: 'none',
  });
const ROUTE = "export default () => ({ name: 'r', route: () => ({ instance: 0, reason: 'first' }) });\n";

describe('blis evaluate: a request longer than the launcher reads ahead', () => {
  it('is read on from stdin and answered as a short one', async () => {
    const short = await evaluateCli([], request(ROUTE));
    const long = await evaluateCli([], request(`${ROUTE}// ${'x'.repeat(1_500_000)}\n`));
    expect(long.code, long.stderr).toBe(0);
    expect(JSON.parse(long.stdout).combined_score).toBe(JSON.parse(short.stdout).combined_score);
    expect(JSON.parse(long.stdout).status).toBe('ok');
  }, 60_000);

  it('is still held to the 16 MiB limit', async () => {
    const r = await evaluateCli([], `{"pad": "${'x'.repeat(17 * 2 ** 20)}"}`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('blis: stdin: expected a blis-eval/1 request (JSON) of at most 16 MiB, found more\n');
  }, 60_000);
});
