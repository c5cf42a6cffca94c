#!/usr/bin/env node
// Where a `blis` command's optimised code is thrown away, named in the TypeScript sources.
//
//   node bench/deopt-sites.mjs [--cli packages/cli/dist/cli.cjs] [--runs 3] -- run --model M ...
//
// Runs the command once to fill its code cache, then `--runs` times under V8's
// `--trace-deopt-verbose`, and prints each deoptimisation: the function whose optimised code went,
// V8's reason, and the source position (through the bundle's source map) of the operation that
// had no feedback or the wrong kind, with the functions it was inlined into. Which deopts occur
// depends on when background compiles finish, so the runs differ; the count column says in how
// many runs a site showed. A cold run's time goes to code that is not optimised yet (see
// bench/README.md, the thirteenth sitting): a site that recurs in every run is worth a look.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
if (sep < 0 || sep === argv.length - 1) {
  process.stderr.write('usage: node bench/deopt-sites.mjs [--cli FILE] [--runs N] -- <blis arguments>\n');
  process.exit(2);
}
const opts = argv.slice(0, sep);
const args = argv.slice(sep + 1);
const opt = (name, fallback) => {
  const i = opts.indexOf(name);
  return i < 0 ? fallback : opts[i + 1];
};
const cli = resolve(opt('--cli', resolve(root, 'packages/cli/dist/cli.cjs')));
const runs = Number(opt('--runs', '3'));
const bundle = resolve(dirname(cli), 'blis.cjs');
const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));

const where = (line, col) => {
  const e = map.findEntry(line - 1, col - 1);
  if (e?.originalSource === undefined) return `blis.cjs:${line}:${col}`;
  const src = e.originalSource.replace(/^.*?node_modules\//, 'node_modules/');
  const file = src.startsWith('node_modules/') ? src : relative(root, resolve(dirname(bundle), src));
  return `${file}:${e.originalLine + 1}`;
};

spawnSync(process.execPath, [cli, ...args], { stdio: 'ignore' });
const seen = new Map();
for (let r = 0; r < runs; r++) {
  const out = spawnSync(process.execPath, ['--trace-deopt-verbose', cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  const lines = out.split('\n');
  const inRun = new Set();
  for (let i = 0; i < lines.length; i++) {
    const m = /reason: (.*?)\): begin\. deoptimizing \S+ <JSFunction (\S*)/.exec(lines[i]);
    if (m === null) continue;
    const chain = [...(lines[i + 1] ?? '').matchAll(/blis\.cjs:(\d+):(\d+)/g)].map((p) => where(Number(p[1]), Number(p[2])));
    const key = `${m[2] || '(anonymous)'} | ${m[1]} | ${chain.length > 0 ? chain.join(' <- ') : '(outside the bundle)'}`;
    if (inRun.has(key)) continue;
    inRun.add(key);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
}
process.stdout.write(`runs | function | reason | at (innermost first)\n`);
for (const [key, n] of [...seen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) process.stdout.write(`${n}/${runs} | ${key}\n`);
