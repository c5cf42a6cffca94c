import { readJsonFile } from './json-file.js';
import { formatParamPath, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import catalogue from './data/hardware.json';
import { LatencyConfigError } from './errors.js';

/** One GPU's roofline facts (hardware_config.json). */
export interface GpuSpec {
  name: string;
  /** Dense FP16/BF16 peak, TFLOP/s. */
  tflopsPeak: number;
  /** FP8 peak, TFLOP/s (0 when unsupported). */
  tflopsFp8: number;
  /** Memory bandwidth, TB/s. */
  bandwidthTBs: number;
  mfuPrefill: number;
  mfuDecode: number;
  memoryGiB: number;
}

const entry = z
  .object({
    TFlopsPeak: z.number().positive(),
    TFlopsFP8: z.number().nonnegative().default(0),
    BwPeakTBs: z.number().positive(),
    mfuPrefill: z.number().gt(0).lte(1),
    mfuDecode: z.number().gt(0).lte(1),
    MemoryGiB: z.number().positive(),
  })
  .loose();
const file = z.record(z.string(), entry);

function toSpecs(raw: unknown, where: string): Map<string, GpuSpec> {
  const r = file.safeParse(raw);
  if (!r.success) {
    const [t] = zodIssueTexts(r.error.issues, raw);
    throw new LatencyConfigError(`${where}${t.path.length > 0 ? ` ${formatParamPath(t.path, '')}` : ''}: expected ${t.expected}, found ${t.found}`);
  }
  const out = new Map<string, GpuSpec>();
  for (const [name, e] of Object.entries(r.data)) {
    out.set(name, { name, tflopsPeak: e.TFlopsPeak, tflopsFp8: e.TFlopsFP8, bandwidthTBs: e.BwPeakTBs, mfuPrefill: e.mfuPrefill, mfuDecode: e.mfuDecode, memoryGiB: e.MemoryGiB });
  }
  return out;
}

const builtin = toSpecs(catalogue, 'hardware catalogue');

/** GPUs the catalogue knows, sorted. */
export function knownHardware(): string[] {
  return [...builtin.keys()].sort();
}

/** Looks a GPU up (case-insensitively) in the catalogue or an extra hardware_config.json. */
export function hardwareSpec(name: string, extraPath?: string): GpuSpec {
  const table = new Map(builtin);
  if (extraPath !== undefined) {
    let raw: unknown;
    try {
      raw = readJsonFile(extraPath, (found) => new LatencyConfigError(`${extraPath}: expected a hardware_config.json (JSON), found ${found}`));
    } catch (e) {
      if (e instanceof LatencyConfigError) throw e;
      throw new LatencyConfigError(`${extraPath}: expected a readable hardware_config.json, found ${(e as Error).message}`);
    }
    for (const [k, v] of toSpecs(raw, extraPath)) table.set(k, v);
  }
  for (const [k, v] of table) if (k.toLowerCase() === name.toLowerCase()) return v;
  throw new LatencyConfigError(`unknown hardware "${name}"; known: ${[...table.keys()].sort().join(', ')}`);
}
