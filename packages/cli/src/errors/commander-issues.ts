import type { Command, CommanderError } from 'commander';
import { UsageError, type UsageIssue } from './usage-error.js';

// commander's own usage errors ("error: unknown option ...") as UsageErrors, reported like every
// other bad input: "blis: where: expected ..., found ...".

/** The long name (`--rate`) of the option of `cmd` whose flags text is `flags` (`--rate <value>`). */
function longOptionOf(cmd: Command, flags: string): string {
  return cmd.options.find((o) => o.flags === flags)?.long ?? flags.split(/[ ,]/)[0];
}

/**
 * Makes `cmd` throw instead of exiting, with commander's usage errors rewritten as UsageErrors
 * naming the option, what was expected and what was found. Help and --version pass through.
 */
export function usageErrors(cmd: Command): void {
  cmd.exitOverride((err) => {
    const issue = commanderIssue(cmd, err);
    throw issue === undefined ? err : new UsageError([issue]);
  });
}

/** `blis`, `blis run`, `blis convert preset`. */
function commandPath(cmd: Command): string {
  return cmd.parent === null ? 'blis' : `${commandPath(cmd.parent)} ${cmd.name()}`;
}

function commanderIssue(cmd: Command, err: CommanderError): UsageIssue | undefined {
  const msg = err.message.replace(/^error: /, '');
  const suggestion = /\(Did you mean (.+)\?\)/.exec(msg)?.[1];
  const hint = suggestion !== undefined ? `; did you mean ${suggestion}?` : '';
  const name = commandPath(cmd);
  let m: RegExpExecArray | null;
  switch (err.code) {
    case 'commander.unknownOption':
      m = /unknown option '([^']+)'/.exec(msg);
      return { where: m?.[1] ?? name, expected: `an option of \`${name}\` (see \`${name} --help\`)`, found: `an unknown option${hint}` };
    case 'commander.unknownCommand':
      m = /unknown command '([^']+)'/.exec(msg);
      return {
        where: 'command',
        expected: `one of ${cmd.commands.map((c) => c.name()).join(', ')}`,
        found: `${JSON.stringify(m?.[1] ?? '')}${hint}`,
      };
    case 'commander.optionMissingArgument':
      m = /option '([^']+)' argument missing/.exec(msg);
      return { where: m !== null ? longOptionOf(cmd, m[1]) : name, expected: 'a value after it', found: 'nothing' };
    case 'commander.missingMandatoryOptionValue':
      m = /required option '([^']+)' not specified/.exec(msg);
      return { where: m !== null ? longOptionOf(cmd, m[1]) : name, expected: `a value (\`${name}\` requires it)`, found: 'nothing' };
    case 'commander.missingArgument':
      m = /missing required argument '([^']+)'/.exec(msg);
      return { where: name, expected: `the ${m?.[1] ?? 'required'} argument (\`${name} <${m?.[1] ?? 'arg'}>\`)`, found: 'nothing' };
    case 'commander.excessArguments':
      return {
        where: cmd.name(),
        expected: cmd.registeredArguments.length > 0 ? `${cmd.registeredArguments.map((a) => `<${a.name()}>`).join(' ')} and options only` : 'options only (every value follows its --flag)',
        found: `the extra argument${cmd.args.length === 1 ? '' : 's'} ${cmd.args.map((a) => JSON.stringify(a)).join(' ')}`,
      };
    case 'commander.help':
      // `blis` alone: commander printed the help on stderr (exit code 1); say what was missing.
      if (err.exitCode === 0) return undefined;
      return { where: 'command', expected: `one of ${cmd.commands.map((c) => c.name()).join(', ')}`, found: 'nothing' };
    case 'commander.helpDisplayed':
    case 'commander.version':
    case 'commander.executeSubCommandAsync':
      return undefined;
    default:
      return { where: name, expected: 'valid options', found: msg };
  }
}
