import { Command, CommanderError, Option } from 'commander';
import { runConvertCommand } from './commands/convert-command.js';
import { runListCommand } from './commands/list-command.js';
import { runSimulationCommand } from './commands/simulate-command.js';
import type { FlagDef } from './flags.js';
import { reportError } from './report-error.js';
import { REPLAY_FLAGS, SIMULATION_FLAGS } from './run-flags.js';
import { UsageError } from './usage-error.js';

function addFlags(cmd: Command, defs: readonly FlagDef[]): Command {
  for (const def of defs) {
    const valuePart = def.kind === 'bool' ? '' : ' <value>';
    const opt = new Option(`--${def.name}${valuePart}`, def.description + (def.defaultText !== undefined ? ` (default: ${def.defaultText})` : ''));
    if (def.choices !== undefined) opt.description += ` [${def.choices.join('|')}]`;
    opt.helpGroup(def.group);
    cmd.addOption(opt);
    for (const alias of def.aliases ?? []) cmd.addOption(new Option(`--${alias}${valuePart}`).hideHelp());
  }
  return cmd;
}

/** Builds the `blis` program; exported for tests that drive the CLI in-process. */
export function buildProgram(): Command {
  const program = new Command('blis')
    .description('BLIS: a fast, deterministic discrete-event simulator of LLM inference serving')
    .version('0.1.0')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  addFlags(
    program
      .command('run')
      .description('simulate a workload (flags, a preset, or --workload-spec) on one instance or a cluster')
      .exitOverride(),
    SIMULATION_FLAGS,
  ).action(async (opts: Record<string, unknown>) => {
    await runSimulationCommand(SIMULATION_FLAGS, opts, (f) => workloadFromRunFlags(f));
  });

  const replayDefs = [...SIMULATION_FLAGS, ...REPLAY_FLAGS];
  addFlags(
    program.command('replay').description('replay a recorded trace (TraceV2, Mooncake JSONL, Azure CSV) through the simulator').exitOverride(),
    replayDefs,
  ).action(async (opts: Record<string, unknown>) => {
    await runSimulationCommand(replayDefs, opts, (f) => {
      if (typeof f.trace !== 'string') throw new UsageError([{ where: '--trace', expected: 'a trace file path', found: 'nothing' }]);
      return { kind: 'trace', path: f.trace, format: f.traceFormat as 'tracev2' | 'mooncake' | 'azure' | undefined, timeScale: (f.timeScale as number | undefined) ?? 1, maxRequests: f.maxRequests as number | undefined };
    });
  });

  program
    .command('convert')
    .description('write a workload spec, a preset or a trace as a BLIS TraceV2 pair (header .yaml + .csv)')
    .exitOverride()
    .option('--workload-spec <file>', 'WorkloadSpec v2 YAML to convert')
    .option('--trace <file>', 'trace to convert (TraceV2, Mooncake JSONL, Azure CSV)')
    .option('--trace-format <format>', 'trace format (detected when omitted) [tracev2|mooncake|azure]')
    .option('--time-scale <value>', 'multiply arrival times')
    .option('--max-requests <value>', 'convert only the first N requests')
    .option('--num-requests <value>', 'requests to generate from a spec or flags')
    .option('--rate <value>', 'arrival rate for the flag-driven workload (req/s)')
    .option('--workload <preset>', 'length preset [chatbot|contentgen|summarization|multidoc]')
    .option('--seed <value>', 'master random seed (default: 42)')
    .option('--block-size-in-tokens <value>', 'tokens per KV block (default: 16)')
    .requiredOption('--output <prefix>', 'writes <prefix>.yaml and <prefix>.csv')
    .action(async (opts: Record<string, unknown>) => {
      await runConvertCommand(opts);
    });

  program
    .command('models')
    .description('list the models, GPUs and coefficients in the latency catalogue')
    .exitOverride()
    .action(() => runListCommand('models'));
  program
    .command('policies')
    .description('list the built-in admission, priority, routing, scheduler policies and scorers')
    .exitOverride()
    .action(() => runListCommand('policies'));
  return program;
}

function workloadFromRunFlags(f: Record<string, unknown>) {
  if (typeof f.workloadSpec === 'string') {
    const conflicting = ['rate', 'promptTokens', 'outputTokens', 'workload', 'prefixTokens', 'arrivalProcess'].filter((k) => f[k] !== undefined);
    if (conflicting.length > 0)
      throw new UsageError([{ where: '--workload-spec', expected: 'no flag-driven workload flags beside it', found: conflicting.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ') }]);
    return { kind: 'spec' as const, path: f.workloadSpec, numRequests: f.numRequests as number | undefined };
  }
  return {
    kind: 'synthetic' as const,
    preset: f.workload as string | undefined,
    rate: f.rate as number | undefined,
    numRequests: f.numRequests as number | undefined,
    promptTokens: f.promptTokens as number | undefined,
    promptTokensStdev: f.promptTokensStdev as number | undefined,
    promptTokensMin: f.promptTokensMin as number | undefined,
    promptTokensMax: f.promptTokensMax as number | undefined,
    outputTokens: f.outputTokens as number | undefined,
    outputTokensStdev: f.outputTokensStdev as number | undefined,
    outputTokensMin: f.outputTokensMin as number | undefined,
    outputTokensMax: f.outputTokensMax as number | undefined,
    prefixTokens: f.prefixTokens as number | undefined,
    arrivalProcess: f.arrivalProcess as 'poisson' | 'constant' | undefined,
  };
}

/** Runs the CLI with `argv` (without node and script); resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      // commander already printed its message on stderr.
      return 2;
    }
    return reportError(e);
  }
}
