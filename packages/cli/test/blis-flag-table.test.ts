import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/main.js';
import { ROOT } from './blis-process.js';

// Every flag of BLIS HEAD f90a1e3a (fixtures/blis-head-flags, from its --help) is accepted by our
// CLI on the same command under the same name (a hidden alias counts where the concept is ours
// under another name), with the same default where the two are the same value; docs/cli.md's
// "BLIS flags" table lists each.

interface BlisFlag {
  name: string;
  type: string;
  default: string | null;
}
const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'blis-head-flags', 'flags.json'), 'utf8')) as { blis_commit: string; commands: Record<string, BlisFlag[]> };

/**
 * Flags whose defaults are worded differently, or differ, with why (docs/cli.md's table says
 * the same). Keyed `<command> --<flag>`.
 */
const DEFAULT_DIFFERENCES: Readonly<Record<string, string>> = {
  ...both('--horizon', "BLIS's largest int64 and our unset both mean no horizon"),
  ...both('--latency-model', 'trained-physics as in BLIS, and our blackbox model where BLIS HEAD has none'),
  ...both('--lora-adapter-capacity', 'unset in BLIS; ours says what applies when adapters are declared (1)'),
  ...both('--lora-footprint-bytes-per-rank', "BLIS's unset takes defaults.yaml's 2e6, which ours prints"),
  ...both('--lora-load-bandwidth-bytes-us', "BLIS's unset takes defaults.yaml's 2e6, which ours prints"),
  ...both('--lora-load-base-latency-us', "BLIS's unset takes defaults.yaml's 1500, which ours prints"),
  ...both('--model', 'BLIS has no default model; ours runs llama-3.1-8b-instruct'),
  ...both('--moe-comm-backend', "BLIS's empty value means allgather_reducescatter, which ours prints"),
  ...both('--routing-scorers', "BLIS's empty value means this default profile, which ours prints"),
  ...both('--saturation-final-window', "BLIS's empty value means this rule, which ours prints"),
  ...both('--total-kv-blocks', 'BLIS derives the count from GPU memory too (its 1000000 applies to neither analytical backend)'),
  ...both('--defaults-filepath', "ours reads the shipped catalogue, not ./defaults.yaml (docs/cli.md, --defaults-filepath)"),
  'observe --defaults-filepath': "ours reads the shipped catalogue, not ./defaults.yaml (docs/cli.md, --defaults-filepath)",
  'convert preset --defaults-filepath': "ours reads the shipped catalogue, not ./defaults.yaml (docs/cli.md, --defaults-filepath)",
  'observe --itl-output': "BLIS's empty value means this path, which ours prints",
  'observe --kv-metrics-url': "BLIS's empty value means this URL, which ours prints",
  'observe --saturation-final-window': "BLIS's empty value means this rule, which ours prints",
};
function both(flag: string, why: string): Record<string, string> {
  return { [`run ${flag}`]: why, [`replay ${flag}`]: why };
}

/** Go's zero values, a zero slice (BLIS's "not given" for coefficients) and no default are one. */
function normalized(text: string | null): string {
  if (text === null || text === '' || text === 'false') return '';
  if (/^\[(?:0(?:\.0+)?,?)*\]$/.test(text)) return '';
  const n = Number(text);
  return Number.isFinite(n) && text.trim() !== '' ? (n === 0 ? '' : String(n)) : text;
}

function commandOf(program: Command, path: string): Command {
  let c = program;
  for (const part of path.split(' ')) {
    const next = c.commands.find((x) => x.name() === part);
    if (next === undefined) throw new Error(`no command ${path}`);
    c = next;
  }
  return c;
}

/** Our option for a BLIS flag, and the option it is an alias of (itself when none). */
function ours(cmd: Command, name: string): { option: Option; primary: Option } | undefined {
  const byName = (n: string) => cmd.options.find((o) => o.long === `--${n}`);
  const option = byName(name);
  if (option === undefined) return undefined;
  const alias = /^alias of --([\w-]+)$/.exec(option.description);
  return { option, primary: alias !== null ? (byName(alias[1]) ?? option) : option };
}

/** The default our help prints for an option: the text of its "(default: ...)". */
function ourDefault(o: Option): string | null {
  return / \(default: (.*?)\)(?: \[[^\]]*\])?$/.exec(o.description)?.[1] ?? null;
}

const program = buildProgram();
const commands = Object.entries(FIXTURE.commands);

describe(`BLIS ${FIXTURE.blis_commit}'s flags`, () => {
  it('the fixture covers the commands we mirror', () => {
    expect(FIXTURE.blis_commit).toBe('f90a1e3a');
    expect(commands.map(([c]) => c)).toEqual(['run', 'replay', 'observe', 'calibrate', 'compose', 'convert preset', 'convert servegen', 'convert inference-perf']);
    expect(commands.reduce((n, [, f]) => n + f.length, 0)).toBeGreaterThan(250);
  });

  it.each(commands)('blis %s accepts every one under its name', (path, flags) => {
    const cmd = commandOf(program, path);
    const missing = flags.filter((f) => ours(cmd, f.name) === undefined).map((f) => `--${f.name}`);
    expect(missing).toEqual([]);
  });

  it.each(commands)('blis %s: the same defaults, or a listed difference', (path, flags) => {
    const cmd = commandOf(program, path);
    const unexplained: string[] = [];
    const stale: string[] = [];
    for (const f of flags) {
      const o = ours(cmd, f.name);
      if (o === undefined) continue;
      const key = `${path} --${f.name}`;
      const same = normalized(ourDefault(o.primary)) === normalized(f.default);
      if (!same && DEFAULT_DIFFERENCES[key] === undefined) unexplained.push(`${key}: BLIS ${JSON.stringify(f.default)}, ours ${JSON.stringify(ourDefault(o.primary))}`);
      if (same && DEFAULT_DIFFERENCES[key] !== undefined) stale.push(key);
    }
    expect(unexplained).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('every listed difference names a BLIS flag we accept', () => {
    for (const key of Object.keys(DEFAULT_DIFFERENCES)) {
      const [, path, name] = /^(.+) --([\w-]+)$/.exec(key) ?? [];
      expect(FIXTURE.commands[path]?.some((f) => f.name === name), key).toBe(true);
      expect(ours(commandOf(program, path), name), key).toBeDefined();
    }
  });

  it.each(commands)('docs/cli.md lists every flag of blis %s with BLIS\'s default', (path, flags) => {
    const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8').split('\n## BLIS flags\n')[1];
    expect(doc).toBeDefined();
    const section = doc.split(`\n### \`blis ${path}\`\n`)[1]?.split('\n### ')[0];
    expect(section, path).toBeDefined();
    const rows = section.split('\n').filter((l) => l.startsWith('| `--'));
    expect(rows.map((r) => /^\| `--([\w-]+)`/.exec(r)?.[1])).toEqual(flags.map((f) => f.name));
    flags.forEach((f, i) => {
      const cells = rows[i].split(' | ');
      expect(cells[1], `${path} --${f.name}`).toBe(f.default === null ? '' : `\`${f.default}\``);
      // A pending flag is said to be pending; an accepted one is not.
      expect(cells[2].startsWith('not yet'), `${path} --${f.name}`).toBe(ours(commandOf(program, path), f.name) === undefined);
    });
  });
});
