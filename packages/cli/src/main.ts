import { CommanderError } from 'commander';
import { completeCompareHelp, programFor } from './program.js';

// `blis ARGS`: builds the program (program.ts), runs the command, and turns how it ended into an
// exit code: 0, 2 for bad input (errors/), or what errors/report-error.ts decides.

export { buildProgram } from './program.js';

/** Runs the CLI with `argv` (without node and script); resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // Only the commands argv can reach: the others' flag tables stay unbuilt.
  const program = programFor(argv);
  if (argv[0] === 'help' && argv[1] === 'compare') {
    const metrics = program.commands.find((c) => c.name() === 'compare')?.options.find((o) => o.long === '--metrics');
    if (metrics !== undefined) await completeCompareHelp(metrics);
  }
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and --version (usage errors arrive as UsageErrors, see errors/commander-issues.ts).
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return e.exitCode === 0 ? 0 : 2;
      process.stderr.write(`blis: ${e.message.replace(/^error: /, '')}\n`);
      return 2;
    }
    const { reportError } = await import('./errors/report-error.js');
    return reportError(e);
  }
}
