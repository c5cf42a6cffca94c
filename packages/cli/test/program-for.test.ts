import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, programFor } from '../src/program.js';

// A start-up builds only the commands its command line can reach (programFor): each one must be
// the same command, flags and help as in the whole program, and whatever can list or name other
// commands (help, an unknown or missing command) must get them all.

const names = (p: Command): string[] => p.commands.map((c) => c.name());
const withSubcommands = (cmds: readonly Command[]): Command[] => cmds.flatMap((c) => [c, ...withSubcommands(c.commands)]);
/** What commander shows and accepts for a command and each of its subcommands. */
const shape = (c: Command) =>
  withSubcommands([c]).map((s) => ({
    name: s.name(),
    help: s.helpInformation(),
    options: s.options.map((o) => ({ flags: o.flags, hidden: o.hidden, description: o.description })),
  }));

const whole = buildProgram();
const ALL = names(whole);

describe('programFor', () => {
  it('knows every command of the program', () => {
    expect(ALL).toContain('run');
    expect(ALL).toContain('evaluate');
    expect(ALL.length).toBeGreaterThan(10);
  });

  it.each(ALL)('builds `%s` alone, as the whole program has it', (name) => {
    const p = programFor([name, '--help']);
    expect(names(p)).toEqual([name]);
    const [own] = p.commands;
    const full = whole.commands.find((c) => c.name() === name);
    if (own === undefined || full === undefined) throw new Error(`no ${name}`);
    expect(shape(own)).toEqual(shape(full));
  });

  it('builds no command for --version first, and the same program options', () => {
    for (const argv of [['--version'], ['-V'], ['--version', 'run']]) {
      const p = programFor(argv);
      expect(names(p)).toEqual([]);
      expect(p.options.map((o) => o.flags)).toEqual(whole.options.map((o) => o.flags));
      expect(p.version()).toBe(whole.version());
    }
  });

  it('builds every command when the first word is no command', () => {
    for (const argv of [[], ['--help'], ['-h'], ['help'], ['help', 'run'], ['rnu'], ['--bogus', 'run'], ['Run']]) {
      const p = programFor(argv);
      expect(names(p)).toEqual(ALL);
      expect(p.helpInformation()).toBe(whole.helpInformation());
    }
  });
});
