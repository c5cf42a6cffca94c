// Regenerates packages/cli/test/fixtures/blis-head-flags/flags.json from a built Go BLIS binary's
// `--help` output: every flag of the commands we mirror, with its value type and the default the
// help prints. `blis-flag-table.test.ts` holds our CLI to it.
//
//   node --import tsx tools/blis-flags.ts [BLIS_DIR]      (default /work/blis-head; needs ./blis there)

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const COMMANDS = ['run', 'replay', 'observe', 'calibrate', 'compose', 'convert preset', 'convert servegen', 'convert inference-perf'] as const;

export interface BlisFlag {
  name: string;
  /** The value type cobra prints (`int`, `string`, `float64Slice`, ...); `bool` for a switch. */
  type: string;
  /** The default as the help prints it (strings unquoted); null when the help prints none (Go's zero value). */
  default: string | null;
}

// `      --name type    description (default X)`: cobra pads the name-and-type column with two or more
// spaces. A backquoted word in a description becomes the printed type (`--scrape-kv-metrics blis
// calibrate`), so a type is only a Go type name; anything else there is a bool's borrowed word.
const LINE = /^\s+(?:-\w, )?--([\w-]+)(?: (\S.*?))?\s{2,}(.*)$/;
const GO_TYPE = /^(?:u?int(?:8|16|32|64)?|float(?:32|64)?|string|duration|(?:string|int|float64|float32|uint|bool|duration)(?:Slice|Array)|stringArray|stringToString|bytesHex|count)$/;

/** The flags of one command's `--help` text; `help` itself is left out. */
export function parseHelp(text: string): BlisFlag[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === 'Flags:');
  if (start < 0) throw new Error('no "Flags:" section in the help text');
  const flags: BlisFlag[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const m = LINE.exec(line);
    if (m === null) throw new Error(`unparsed help line: ${line}`);
    const [, name, typeText, description] = m;
    if (name === 'help') continue;
    const type = typeText !== undefined && GO_TYPE.test(typeText) ? typeText : 'bool';
    // The last "(default X)": a description may say "default" in parentheses before it.
    const d = /.*\(default (.*?)\)$/.exec(description);
    const raw = d?.[1] ?? null;
    const quoted = raw?.startsWith('"') === true && raw.endsWith('"');
    flags.push({ name, type, default: quoted ? (raw as string).slice(1, -1) : raw });
  }
  return flags;
}

function main(): void {
  const dir = process.argv[2] ?? '/work/blis-head';
  const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short=8', 'HEAD'], { encoding: 'utf8' }).trim();
  const commands: Record<string, BlisFlag[]> = {};
  for (const cmd of COMMANDS) {
    const help = execFileSync('./blis', [...cmd.split(' '), '--help'], { cwd: dir, encoding: 'utf8' });
    commands[cmd] = parseHelp(help);
  }
  const out = join(import.meta.dirname, '../packages/cli/test/fixtures/blis-head-flags/flags.json');
  // One flag a line, so a regeneration's diff shows each flag that came, went or changed.
  const body = Object.entries(commands)
    .map(([cmd, flags]) => `    ${JSON.stringify(cmd)}: [\n${flags.map((f) => `      ${JSON.stringify(f)}`).join(',\n')}\n    ]`)
    .join(',\n');
  writeFileSync(out, `{\n  "blis_commit": ${JSON.stringify(commit)},\n  "generated_by": "tools/blis-flags.ts",\n  "commands": {\n${body}\n  }\n}\n`);
  process.stdout.write(`wrote ${out}: ${Object.values(commands).reduce((n, f) => n + f.length, 0)} flags of ${COMMANDS.length} commands (BLIS ${commit})\n`);
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) main();
