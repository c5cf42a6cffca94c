import { Command, Option } from 'commander';
import { usageErrors } from './errors/commander-issues.js';
import { UsageError } from './errors/usage-error.js';
import { CALIBRATE_OPTIONS } from './flags/calibrate-flags.js';
import { CAPACITY_EXCLUDED_FLAGS, CAPACITY_FLAGS } from './flags/capacity-flags.js';
import { LAZY_GENERATION_FLAG, REPLAY_SESSION_FLAGS, RUN_CLOSED_LOOP_FLAGS } from './flags/closed-loop-flag-defs.js';
import { COMPARE_EXCLUDED } from './flags/compare-flags.js';
import { COMPOSE_FLAGS } from './flags/compose-flags.js';
import { CONVERT_INFERENCE_PERF_FLAGS, CONVERT_PRESET_FLAGS, CONVERT_SERVEGEN_FLAGS } from './flags/convert-spec-flags.js';
import { camel } from './flags/flag-name.js';
import type { FlagDef } from './flags/flags.js';
import { OBSERVE_FLAGS } from './flags/observe-flags.js';
import { GENERATION_FLAGS, REPLAY_FLAGS, SIMULATION_FLAGS } from './flags/run-flags.js';
import { SATURATION_FLAGS } from './flags/saturation-flags.js';
import { SERVE_SIM_EXCLUDED, SERVE_SIM_FLAGS } from './flags/serve-sim-flags.js';
import { cliVersion } from './version.js';

// The command table: every command, its flags (from flags/) and the module that runs it (from
// commands/, imported only when the command runs, so `--help` and `--version` load no simulator).
// Only flag tables are imported here: whatever validates or runs a command (the workload and
// policy packages, zod schemas) loads in that command's action.

/** How refusals describe a given value (@blis/policies, loaded by the action that needs it). */
const foundText = async () => (await import('@blis/policies/internal')).describeFound;
/** The workload flags' readers (they load @blis/workload), for the commands that take a workload. */
const workloadFlags = () => import('./config/workload-flags.js');

/** `blis run`'s flags: the simulation's, its closed loop, and the post-hoc saturation analysis of run and replay. */
const RUN_DEFS = [...SIMULATION_FLAGS, ...RUN_CLOSED_LOOP_FLAGS, LAZY_GENERATION_FLAG, ...SATURATION_FLAGS];

function addFlags(cmd: Command, defs: readonly FlagDef[]): Command {
  for (const def of defs) {
    const valuePart = def.kind === 'bool' ? '' : ' <value>';
    const opt = new Option(`--${def.name}${valuePart}`, def.description + (def.defaultText !== undefined ? ` (default: ${def.defaultText})` : ''));
    if (def.choices !== undefined) opt.description += ` [${def.choices.join('|')}]`;
    if (def.kind === 'strings') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    // Hidden aliases share the group, so commander's "Options:" group (--help) comes last.
    opt.helpGroup(`${def.group}:`);
    cmd.addOption(opt);
    // Described (though hidden) so that what an alias stands for can be looked up.
    for (const alias of def.aliases ?? []) cmd.addOption(new Option(`--${alias}${valuePart}`, `alias of --${def.name}`).hideHelp().helpGroup(`${def.group}:`));
  }
  return cmd;
}

/** Each command's entry in the program, in the order `--help` lists them. */
const COMMANDS: ReadonlyArray<readonly [name: string, add: (program: Command) => void]> = [
  ['run', (program) => {
    addFlags(
      program
        .command('run')
        .description('simulate a workload (flags, a preset, or --workload-spec) on one instance or a cluster'),
      RUN_DEFS,
    ).action(async (opts: Record<string, unknown>) => {
      const { runSimulationCommand } = await import('./commands/simulate-command.js');
      const { runClosedLoopWorkload } = await import('./config/closed-loop-flags.js');
      const presets = (await import('./config/defaults-apply.js')).presetAndLengths;
      const { workloadFromRunFlags } = await workloadFlags();
      await runSimulationCommand(RUN_DEFS, opts, (f) => runClosedLoopWorkload(f) ?? workloadFromRunFlags(f, presets));
    });
  }],
  ['replay', (program) => {
    // The trace gives arrivals and lengths: replay has no workload-generation flags. They are still
    // recognised (hidden), so giving one says why it does not apply instead of "unknown option".
    const replayDefs = [...SIMULATION_FLAGS.filter((d) => !GENERATION_FLAGS.includes(d.name)), ...REPLAY_FLAGS, ...REPLAY_SESSION_FLAGS, LAZY_GENERATION_FLAG, ...SATURATION_FLAGS];
    const replay = addFlags(program.command('replay').description('replay a recorded trace (TraceV2, Mooncake JSONL, Azure CSV) through the simulator'), replayDefs);
    for (const name of GENERATION_FLAGS) replay.addOption(new Option(`--${name} <value>`).hideHelp().helpGroup('Workload:'));
    replay.action(async (opts: Record<string, unknown>) => {
      const generation = GENERATION_FLAGS.filter((n) => opts[camel(n)] !== undefined);
      if (generation.length > 0) {
        const describeFound = await foundText();
        throw new UsageError(
          generation.map((n) => ({
            where: `--${n}`,
            expected: 'no workload-generation flag with `blis replay` (the trace gives arrivals and lengths; see --max-requests, --time-scale)',
            found: describeFound(opts[camel(n)]),
          })),
        );
      }
      const { runSimulationCommand } = await import('./commands/simulate-command.js');
      const { replaySessionSettings } = await import('./config/closed-loop-flags.js');
      const { tracePath } = await workloadFlags();
      await runSimulationCommand(replayDefs, opts, (f) => {
        const { path, dataPath } = tracePath(f);
        const sessions = replaySessionSettings(f);
        return { kind: 'trace', path, dataPath, format: f.traceFormat as 'tracev2' | 'mooncake' | 'azure' | undefined, timeScale: (f.timeScale as number | undefined) ?? 1, maxRequests: f.maxRequests as number | undefined, ...sessions };
      });
    });
  }],
  ['capacity', (program) => {
    // Every `blis run` flag, the trace flags of `blis replay` (a trace's rate scales through
    // --time-scale), and the search's own; flags that shape one run's report are refused.
    const capacityDefs = [...SIMULATION_FLAGS.filter((d) => !CAPACITY_EXCLUDED_FLAGS.includes(d.name)), ...REPLAY_FLAGS, ...CAPACITY_FLAGS];
    const capacity = addFlags(
      program.command('capacity').description('find the largest arrival rate (or the fewest instances) that meets latency targets, by bracketing and bisection over seeded runs'),
      capacityDefs,
    );
    for (const name of CAPACITY_EXCLUDED_FLAGS) {
      const def = SIMULATION_FLAGS.find((d) => d.name === name);
      capacity.addOption(new Option(`--${name}${def?.kind === 'bool' ? '' : ' <value>'}`).hideHelp().helpGroup('Output and analysis:'));
    }
    capacity.action(async (opts: Record<string, unknown>) => {
      const describeFound = await foundText();
      const excluded = CAPACITY_EXCLUDED_FLAGS.filter((n) => opts[camel(n)] !== undefined);
      if (excluded.length > 0)
        throw new UsageError(
          excluded.map((n) => ({
            where: `--${n}`,
            expected: `no per-run report flag with \`blis capacity\` (its output is the search's report${n.startsWith('slo-') ? '; give latency limits with --target' : ''})`,
            found: describeFound(opts[camel(n)]),
          })),
        );
      const fromTrace = ['trace', 'traceHeader', 'traceData'].some((k) => opts[k] !== undefined);
      const { runCapacityCommand } = await import('./commands/capacity-command.js');
      const presets = (await import('./config/defaults-apply.js')).presetAndLengths;
      const { tracePath, workloadFromRunFlags } = await workloadFlags();
      await runCapacityCommand(capacityDefs, opts, (f) => {
        if (!fromTrace) {
          const traceOnly = ['trace-format', 'time-scale', 'max-requests'].filter((n) => f[camel(n)] !== undefined);
          if (traceOnly.length > 0)
            throw new UsageError(traceOnly.map((n) => ({ where: `--${n}`, expected: 'a trace beside it (--trace, or --trace-header with --trace-data)', found: 'no trace' })));
          return workloadFromRunFlags(f, presets);
        }
        const generation = GENERATION_FLAGS.filter((n) => f[camel(n)] !== undefined);
        if (generation.length > 0)
          throw new UsageError(generation.map((n) => ({ where: `--${n}`, expected: 'no workload-generation flag with a trace (it gives arrivals and lengths; its rate scales through --time-scale)', found: describeFound(f[camel(n)]) })));
        const { path, dataPath } = tracePath(f);
        return { kind: 'trace', path, dataPath, format: f.traceFormat as 'tracev2' | 'mooncake' | 'azure' | undefined, timeScale: (f.timeScale as number | undefined) ?? 1, maxRequests: f.maxRequests as number | undefined };
      });
    });
  }],
  ['observe', (program) => {
    // A real server instead of the simulator: all flags validated here, so nothing is sent on bad input.
    // BLIS's post-hoc saturation analysis runs over the real server's answers too.
    const observeDefs = [...OBSERVE_FLAGS, ...SATURATION_FLAGS];
    const observeCmd = addFlags(program.command('observe').description('send a workload to a real OpenAI-compatible server and record it as a TraceV2 pair (mode: real) for replay and calibrate'), observeDefs);
    observeCmd.action(async (opts: Record<string, unknown>) => {
      const { runObserveCommand } = await import('./commands/observe-command.js');
      await runObserveCommand(observeDefs, opts);
    });
  }],
  ['convert', (program) => {
    const convert = program
      .command('convert')
      .description("write a workload spec, a preset or a trace as a BLIS TraceV2 pair (header .yaml + .csv); BLIS's converters to a v2 spec on stdout: convert preset|servegen|inference-perf")
      // Its own flags only before a subcommand's name: --rate and --num-requests after `preset` are the preset's.
      .enablePositionalOptions()
      .option('--workload-spec <file>', 'WorkloadSpec v2 YAML to convert')
      .option('--trace <file>', 'trace to convert (TraceV2, Mooncake JSONL, Azure CSV)')
      .option('--trace-format <format>', 'trace format (detected when omitted) [tracev2|mooncake|azure]')
      .option('--time-scale <value>', 'multiply arrival times')
      .option('--max-requests <value>', 'convert only the first N requests')
      .option('--num-requests <value>', 'requests to generate from a spec or flags')
      .option('--rate <value>', 'arrival rate for the flag-driven workload (req/s)')
      .option('--workload <preset>', 'length preset [chatbot|contentgen|summarization|multidoc]')
      .option('--seed <value>', 'master random seed (default: 42)')
      .option('--timeout <value>', 'per-request deadline in seconds, written as deadline_us; negative = none; a --workload-spec keeps its own unless given (default: 300)')
      .option('--block-size-in-tokens <value>', 'tokens per KV block (default: 16)')
      .option('--kv-offload-config <file>', 'record this kv_offload: block, resolved, in the header: a replay then simulates that offload chain')
      .option('--model <value>', 'with --kv-offload-config: the model whose KV size sizes the offload blocks (default: meta-llama/llama-3.1-8b-instruct)')
      .option('--tp <value>', 'with --kv-offload-config: tensor parallelism; default: the model\'s')
      .option('--model-config <value>', 'with --kv-offload-config: HF config.json (or its folder) of a model the catalogue lacks')
      .option('--output <prefix>', 'writes <prefix>.yaml and <prefix>.csv (required)')
      .action(async (opts: Record<string, unknown>) => {
        const { runConvertCommand } = await import('./commands/convert-command.js');
        await runConvertCommand(opts);
      });
    addFlags(convert.command('preset').description('BLIS: convert a named workload preset to a v2 spec (YAML on stdout)'), CONVERT_PRESET_FLAGS).action(async (opts: Record<string, unknown>) => {
      (await import('./commands/convert-spec-command.js')).runConvertPresetCommand(opts);
    });
    addFlags(convert.command('servegen').description('BLIS: convert a ServeGen data directory to a v2 spec with multi-period cohorts (YAML on stdout)'), CONVERT_SERVEGEN_FLAGS).action(async (opts: Record<string, unknown>) => {
      (await import('./commands/convert-servegen-command.js')).runConvertServeGenCommand(opts);
    });
    addFlags(convert.command('inference-perf').description('BLIS: convert an inference-perf spec to a v2 spec (YAML on stdout)'), CONVERT_INFERENCE_PERF_FLAGS).action(async (opts: Record<string, unknown>) => {
      (await import('./commands/convert-spec-command.js')).runConvertInferencePerfCommand(opts);
    });
  }],
  ['evaluate', (program) => {
    program
      .command('evaluate')
      .description('answer one blis-eval/1 request (JSON on stdin) with one JSON response line: the evaluator OpenEvolve and GEPA call')
      .option('--request <file>', 'read the request from this file instead of stdin')
      .option('--serve', 'persistent mode: one request per stdin line, one response per stdout line, until stdin closes')
      .option('--ignore-memory-limit', "run even when a run's memory estimate exceeds this machine's memory (see docs/limits.md)")
      .action(async (opts: { request?: string; serve?: boolean; ignoreMemoryLimit?: boolean }) => {
        const { runEvaluateCommand } = await import('./commands/evaluate-command.js');
        await runEvaluateCommand(opts);
      });
  }],
  ['sweep', (program) => {
    program
      .command('sweep')
      .description('run a grid or random search over config parameters on worker threads, or on a Redis queue (--queue); results as CSV and JSON (resumable)')
      .argument('<spec>', 'sweep spec YAML (see docs/sweeps.md)')
      .option('--output <file>', 'results CSV; the JSON goes beside it (.csv -> .json), the journal at <file>.partial')
      .option('--workers <value>', 'worker threads (default: available parallelism; 1 runs inline)')
      .option('--restart', 'discard the journal (or, with --queue, the sweep in Redis) of an earlier run instead of resuming from it')
      .option('--queue <url>', 'run the jobs on `blis worker`s through Redis: redis://HOST:PORT[/DB] (see docs/distributed-sweeps.md)')
      .option('--status', 'with --queue: print the state of this sweep in Redis and exit')
      .option('--clean', "with --queue: remove this sweep's jobs, results and files from Redis and exit")
      .option('--keep-queue', "with --queue: keep the sweep's keys in Redis after writing the results")
      .option('--quiet', 'no progress bar or log lines on stderr')
      .option('--ignore-memory-limit', "run even when the largest run's memory estimate times --workers exceeds this machine's memory (see docs/limits.md)")
      .action(async (spec: string, opts: Record<string, unknown>) => {
        const { runSweepCommand } = await import('./commands/sweep-command.js');
        await runSweepCommand(spec, opts);
      });
  }],
  ['worker', (program) => {
    program
      .command('worker')
      .description('run the jobs of queued sweeps (`blis sweep --queue`) from Redis, until stopped')
      .requiredOption('--queue <url>', 'the Redis the sweeps use: redis://HOST:PORT[/DB]')
      .option('--concurrency <value>', 'simulations at once, on worker threads (default: available parallelism)')
      .option('--lock-duration <ms>', "how long a job's lock lasts without renewal: a dead worker's jobs go back to the queue after about this long (default: 30000)")
      .option('--max-stalled <value>', 'times a job may be given back by dead workers before it fails for good (default: 2)')
      .option('--max-idle <seconds>', 'stop after this long with no job to run (default: run until stopped)')
      .option('--stop-timeout <seconds>', 'on SIGTERM or Ctrl-C, how long the jobs it holds may take to finish before they are abandoned (exit 1), Redis answering or not (default: 10)')
      .option('--quiet', 'no log lines on stderr')
      .action(async (opts: Record<string, unknown>) => {
        const { runWorkerCommand } = await import('./commands/worker-command.js');
        await runWorkerCommand(opts);
      });
  }],
  ['compare', (program) => {
    // `blis run`'s config with each routing policy in turn; output flags that write per-run files are left out.
    const compareDefs = SIMULATION_FLAGS.filter((d) => !COMPARE_EXCLUDED.includes(d.name));
    // The default is @blis/adapters' list, and that package loads only for the commands that use
    // it: the text is completed just before commander hands over to `compare` (its --help too),
    // and by main() for `blis help compare`, which commander answers without that hand-over.
    const compareMetrics = new Option('--metrics <list>', 'result fields to report').helpGroup('Compare:');
    program.hook('preSubcommand', async (_program, sub) => {
      if (sub.name() === 'compare') await completeCompareHelp(compareMetrics);
    });
    addFlags(
      program.command('compare').description('run several routing policies on one workload (the `blis run` flags) and print one table'),
      compareDefs,
    )
      .addOption(new Option('--policies <list>', 'routing policies to compare: built-in names, ./module.mjs or decision-tree .yaml paths, comma-separated').helpGroup('Compare:'))
      .addOption(new Option('--seeds <list>', 'seeds, comma-separated; metrics are means over them (default: --seed)').helpGroup('Compare:'))
      .addOption(compareMetrics)
      .addOption(new Option('--workers <value>', 'worker threads (default: available parallelism; 1 runs inline)').helpGroup('Compare:'))
      .action(async (opts: Record<string, unknown>) => {
        const { runCompareCommand } = await import('./commands/compare-command.js');
        const presets = (await import('./config/defaults-apply.js')).presetAndLengths;
        const { workloadFromRunFlags } = await workloadFlags();
        await runCompareCommand(compareDefs, opts, (f) => workloadFromRunFlags(f, presets));
      });
  }],
  ['serve-sim', (program) => {
    // The simulated deployment is every `blis run` flag but the workload's and one run's report.
    const serveSimDefs = [...SIMULATION_FLAGS.filter((d) => !GENERATION_FLAGS.includes(d.name) && !SERVE_SIM_EXCLUDED.includes(d.name)), ...SERVE_SIM_FLAGS];
    addFlags(
      program.command('serve-sim').description('serve the simulator as an OpenAI-compatible endpoint whose tokens leave on the simulated timeline (for observe/calibrate tests and demos)'),
      serveSimDefs,
    ).action(async (opts: Record<string, unknown>) => {
      const { runServeSimCommand } = await import('./commands/serve-sim-command.js');
      await runServeSimCommand(serveSimDefs, opts);
    });
  }],
  ['calibrate', (program) => {
    const calibrate = program
      .command('calibrate')
      .description('grade a replay against the real run it replayed: TTFT, E2E and ITL errors, MAPE, correlation and grades, from a `blis observe` trace and the replay\'s per-request results');
    for (const f of CALIBRATE_OPTIONS) calibrate.option(f.flags, f.description);
    calibrate.action(async (opts: Record<string, unknown>) => {
      const { runCalibrateCommand } = await import('./commands/calibrate-command.js');
      await runCalibrateCommand(opts);
    });
  }],
  ['report', (program) => {
    program
      .command('report')
      .description('write simulation results as one self-contained HTML report: latency CDFs, instances over time, routing, drops, P/D, KV tiers, autoscaling, and a comparison of several runs')
      .argument('[results...]', 'result JSON files (`blis run --results-path`), each as a path or name=path')
      .requiredOption('-o, --output <file>', 'the HTML file to write')
      .option('--title <text>', 'the report title (default: BLIS simulation report)')
      .option('--calibration <file>', '`blis calibrate --report` JSON (path or name=path) to show real against simulated latency; repeatable', (v: string, prev: string[] = []) => [...prev, v])
      .action(async (results: string[], opts: { output?: string; title?: string; calibration?: string[] }) => {
        const { runReportCommand } = await import('./commands/report-command.js');
        await runReportCommand(results, opts);
      });
  }],
  ['compose', (program) => {
    const compose = addFlags(program.command('compose').description('merge WorkloadSpec v2 files into one (their clients, rates rescaled), printed on stdout as BLIS prints it'), COMPOSE_FLAGS);
    compose.action(async (opts: Record<string, unknown>) => (await import('./commands/compose-command.js')).runComposeCommand(opts));
  }],
  ['models', (program) => {
    program
      .command('models')
      .description('list the models and GPUs in the latency catalogue')
      .action(async () => (await import('./commands/list-command.js')).runListCommand('models'));
  }],
  ['policies', (program) => {
    program
      .command('policies')
      .description('list the built-in admission, priority, routing, scheduler policies, scorers, P/D deciders and autoscalers')
      .action(async () => (await import('./commands/list-command.js')).runListCommand('policies'));
  }],
];

/** Builds the `blis` program; exported for tests that drive the CLI in-process. */
export function buildProgram(): Command {
  return programWith(COMMANDS.map(([name]) => name));
}

/**
 * The program `blis ARGV` runs, with only the commands it can reach: commander dispatches on the
 * first word, so `blis run ...` needs the `run` command alone, and `blis --version` (answered
 * while the program's own options are read, before any dispatch) none. Anything else (`--help`,
 * `help`, an unknown or missing command) gets every command, for the listing and the errors.
 */
export function programFor(argv: readonly string[]): Command {
  const first = argv[0];
  if (first === '--version' || first === '-V') return programWith([]);
  return programWith(COMMANDS.some(([name]) => name === first) ? [first as string] : COMMANDS.map(([name]) => name));
}

function programWith(names: readonly string[]): Command {
  const program = new Command('blis')
    .description('BLIS: a fast, deterministic discrete-event simulator of LLM inference serving')
    .version(cliVersion())
    .showHelpAfterError(false)
    // Each command reads the flags after its name (`blis convert preset --rate` is the preset's --rate).
    .enablePositionalOptions()
    // commander's own messages ("error: unknown option ...") are not printed; exitOverride turns
    // them into UsageErrors, reported like every other bad input ("blis: where: expected ...").
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => {} });
  usageErrors(program);
  for (const [name, add] of COMMANDS) if (names.includes(name)) add(program);
  const withSubcommands = (cmds: readonly Command[]): Command[] => cmds.flatMap((c) => [c, ...withSubcommands(c.commands)]);
  for (const cmd of withSubcommands(program.commands)) usageErrors(cmd);
  return program;
}

export async function completeCompareHelp(metrics: Option): Promise<void> {
  const { DEFAULT_SWEEP_METRICS } = await import('@blis/adapters/internal');
  metrics.description = `result fields to report (default: ${DEFAULT_SWEEP_METRICS.join(',')})`;
}
