import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BadInputCase } from './bad-input-case.js';
import { runInProcess } from './run-in-process.js';

// The malformed-input corpus: every `cases-*.ts` file beside this one exports `cases`, and each
// case must get the answer the CLI promises for bad input.

const HERE = import.meta.dirname;
const files = readdirSync(HERE).filter((f) => /^cases-.*\.ts$/.test(f)).sort();
const suites = await Promise.all(files.map(async (f) => ({ file: f, cases: ((await import(join(HERE, f))) as { cases: readonly BadInputCase[] }).cases })));

const root = mkdtempSync(join(tmpdir(), 'blis-bad-input-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stack frame as V8 prints it: "    at fn (file:line:col)". */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

let caseIndex = 0;
async function check(c: BadInputCase): Promise<void> {
  const dir = join(root, String(caseIndex++));
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(c.files ?? {})) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'function' ? content() : content);
  }
  const args = c.args.map((a) => a.replaceAll('$DIR/', `${dir}/`));
  const saved = Object.keys(c.env ?? {}).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, c.env);
  let r: Awaited<ReturnType<typeof runInProcess>>;
  try {
    r = await runInProcess(args);
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const shown = `blis ${args.join(' ')}\n--- stderr ---\n${r.stderr.slice(0, 2000)}`;
  expect(r.stderr, shown).not.toMatch(/internal error/);
  expect(r.stderr, shown).not.toMatch(STACK_FRAME);
  expect(r.stdout, shown).toBe('');
  expect(r.code, shown).toBe(2);
  expect(Buffer.byteLength(r.stderr), shown).toBeLessThanOrEqual(c.maxStderrBytes ?? 4096);
  expect(r.stderr.endsWith('\n'), shown).toBe(true);
  const lines = r.stderr.slice(0, -1).split('\n');
  for (const l of lines) expect(l, shown).toMatch(/^blis: /);
  if (c.exactLines === true) expect(lines, shown).toHaveLength(c.stderr.length);
  let from = 0;
  for (const want of c.stderr) {
    const at = lines.findIndex((l, i) => i >= from && (typeof want === 'string' ? l === `blis: ${want}` : want.test(l)));
    expect(at, `no line after line ${from} matches ${String(want)}\n${shown}`).toBeGreaterThanOrEqual(0);
    from = at + 1;
  }
}

for (const s of suites) {
  describe(s.file, () => {
    for (const c of s.cases) it(c.name, () => check(c));
  });
}
