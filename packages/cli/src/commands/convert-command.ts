import { kvOffloadHeaderBlock } from '@blis/workload/internal';
import { describeFound } from '@blis/policies/internal';
import { existsSync, rmSync } from 'node:fs';
import type { RequestSource } from '@blis/engine';
import { type TraceV2Header, createRequestSource, loadWorkloadSpec, openTrace, specFromFlags, writeTraceV2 } from '@blis/workload';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { requireReadable } from '../inputs/input-files.js';
import { loadKVOffloadFile } from '../inputs/kv-offload-file.js';
import { sizeOffloadChain } from '../config/kv-tier-flags.js';
import { DEFAULT_MODEL } from '../config/model-architecture.js';
import { DEFAULT_TIMEOUT_SECONDS, timeoutUs } from '../flags/timeout-flag.js';
import { UsageError } from '../errors/usage-error.js';
import { requireSpecFileSize } from '../inputs/spec-file-limit.js';

const CONVERT_FLAGS: readonly FlagDef[] = [
  { name: 'workload-spec', kind: 'string', group: '', description: '' },
  { name: 'trace', kind: 'string', group: '', description: '' },
  { name: 'trace-format', kind: 'string', choices: ['tracev2', 'mooncake', 'azure'], group: '', description: '' },
  { name: 'time-scale', kind: 'posNumber', group: '', description: '' },
  { name: 'max-requests', kind: 'posInt', group: '', description: '' },
  { name: 'num-requests', kind: 'posInt', group: '', description: '' },
  { name: 'rate', kind: 'posNumber', group: '', description: '' },
  { name: 'workload', kind: 'string', choices: ['chatbot', 'contentgen', 'summarization', 'multidoc'], group: '', description: '' },
  { name: 'seed', kind: 'int', group: '', description: '' },
  { name: 'timeout', kind: 'int', group: '', description: '' },
  { name: 'block-size-in-tokens', kind: 'posInt', group: '', description: '' },
  { name: 'output', kind: 'string', group: '', description: '' },
  { name: 'kv-offload-config', kind: 'string', group: '', description: '' },
  { name: 'model', kind: 'string', group: '', description: '' },
  { name: 'tp', kind: 'posInt', group: '', description: '' },
  { name: 'model-config', kind: 'string', group: '', description: '' },
];

/**
 * The `kv_offload:` header block for --kv-offload-config: the chain a replay of this trace then
 * simulates (its header is authoritative). The model and TP size the blocks, as in `blis run`.
 */
function kvOffloadHeader(f: Record<string, unknown>, blockSizeTokens: number): Partial<TraceV2Header> {
  if (typeof f.kvOffloadConfig !== 'string') {
    const stray = (['model', 'tp', 'modelConfig'] as const).filter((k) => f[k] !== undefined);
    if (stray.length > 0)
      throw new UsageError(
        stray.map((k) => ({ where: `--${k === 'modelConfig' ? 'model-config' : k}`, expected: '--kv-offload-config beside it (convert reads the model only to size offload blocks)', found: describeFound(f[k]) })),
      );
    return {};
  }
  if (typeof f.modelConfig === 'string') requireReadable('--model-config', f.modelConfig, 'model config (config.json or its folder)', true);
  const loaded = loadKVOffloadFile(f.kvOffloadConfig, blockSizeTokens);
  const chain = sizeOffloadChain(loaded, (f.model as string | undefined) ?? DEFAULT_MODEL, f.modelConfig as string | undefined, f.tp as number | undefined, blockSizeTokens);
  return { kv_offload: kvOffloadHeaderBlock(chain) };
}

/** `blis convert`: any workload source written as a TraceV2 pair. Prints a one-line JSON summary. */
export async function runConvertCommand(raw: Record<string, unknown>): Promise<void> {
  const f = parseFlags(CONVERT_FLAGS, raw);
  // Not a commander requiredOption: the parent's required options bind its subcommands too.
  if (f.output === undefined) throw new UsageError([{ where: '--output', expected: 'a value (`blis convert` requires it)', found: 'nothing' }]);
  if (f.workloadSpec !== undefined && f.trace !== undefined)
    throw new UsageError([{ where: '--workload-spec', expected: 'either --workload-spec or --trace', found: 'both' }]);
  if (typeof f.trace === 'string') requireReadable('--trace', f.trace, 'trace file');
  if (typeof f.workloadSpec === 'string') {
    requireReadable('--workload-spec', f.workloadSpec, 'workload spec file');
    requireSpecFileSize('--workload-spec', f.workloadSpec);
  }
  const blockSizeTokens = (f.blockSizeInTokens as number | undefined) ?? 16;
  const extraHeader = kvOffloadHeader(f, blockSizeTokens);
  let source: RequestSource;
  // BLIS writes its trailing adapter column when a request has a LoRA adapter (a spec client names one).
  let adapterColumn = false;
  if (typeof f.trace === 'string') {
    source = openTrace(f.trace, {
      format: f.traceFormat as 'tracev2' | 'mooncake' | 'azure' | undefined,
      timeScale: f.timeScale as number | undefined,
      maxRequests: f.maxRequests as number | undefined,
      blockSizeTokens,
    });
  } else if (typeof f.workloadSpec === 'string') {
    const spec = loadWorkloadSpec(f.workloadSpec);
    adapterColumn = spec.clients.some((c) => c.adapter !== undefined && c.adapter !== '');
    for (const n of spec.notes ?? []) process.stderr.write(`blis: note: ${n}\n`);
    source = createRequestSource(spec, { blockSizeTokens, maxRequests: f.numRequests as number | undefined, seed: f.seed as number | undefined, timeoutUs: timeoutUs(f.timeout) });
  } else {
    source = createRequestSource(
      specFromFlags({ preset: f.workload as string | undefined, rate: f.rate as number | undefined, numRequests: f.numRequests as number | undefined, seed: f.seed as number | undefined, timeoutUs: timeoutUs(f.timeout ?? DEFAULT_TIMEOUT_SECONDS) }),
      { blockSizeTokens },
    );
  }
  const prefix = f.output as string;
  const header = `${prefix}.yaml`;
  const csv = `${prefix}.csv`;
  let n: number;
  // A conversion that fails part-way (a bad trace row) must not leave a partial pair behind.
  const fresh = [header, csv].filter((p) => !existsSync(p));
  try {
    n = writeTraceV2(source, header, csv, extraHeader, undefined, adapterColumn);
  } catch (e) {
    for (const p of fresh) rmSync(p, { force: true });
    if ((e as NodeJS.ErrnoException).code !== undefined)
      throw new UsageError([{ where: '--output', expected: 'a writable path prefix', found: (e as NodeJS.ErrnoException).code! }]);
    throw e;
  }
  process.stdout.write(`${JSON.stringify({ requests: n, header, csv })}\n`);
}
