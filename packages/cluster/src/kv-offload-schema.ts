import { DEVICE_CLASSES } from '@blis/kvcache';
import * as z from 'zod';

// BLIS's `kv_offload:` block (reference §1.2) as library config: the same keys in camelCase.
// Messages read "expected X, found Y" so the CLI can split them and name the file's key and line.

const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();

/** `expected <what>, found <what>`: every rule of this schema words its message so. */
export function expectedFound(expected: string, found: string): string {
  return `expected ${expected}, found ${found}`;
}

const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** A zod error option that explains a missing required key; other problems keep zod's own message. */
const required = (expected: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? expectedFound(expected, 'nothing') : undefined),
});

/** A field-level rule: `bad(value)` says what was expected when the value breaks it (field rules run even when a sibling is malformed). */
const rule =
  <T>(bad: (v: T) => string | undefined) =>
  (v: T, ctx: z.RefinementCtx) => {
    const expected = bad(v);
    if (expected !== undefined) ctx.addIssue({ code: 'custom', message: expectedFound(expected, shown(v)) });
  };

/** One secondary tier (`secondary_tiers[]`). */
export const KVOffloadTierSchema = z
  .object({
    /** Only `fs`: BLIS cannot represent vLLM's obj, p2p or example tiers. */
    type: z
      .string(required('"fs" (required)'))
      .superRefine(rule((t) => (t === 'fs' ? undefined : '"fs" (BLIS represents only filesystem tiers; obj, p2p and example are not supported)'))),
    /** The tier's directory (required for `fs`; informational in the simulator). */
    rootDir: z.string(required('a directory (required for an fs tier)')).min(1, expectedFound('a non-empty directory', '""')),
    /** Read-priority servers of the tier's transfer station. */
    nReadThreads: posInt.default(16),
    /** Write-priority servers of the tier's transfer station. */
    nWriteThreads: posInt.default(16),
    locality: z.enum(['', 'LOCAL', 'REMOTE']).default(''),
    enableKvEvents: z.boolean().default(false),
    /**
     * O_DIRECT (true) or buffered (false) I/O. Required: vLLM probes the disk at start-up and a
     * simulator cannot, and the two regimes are different device figures.
     */
    directIo: z.boolean(required('true or false, set explicitly (direct and buffered I/O are different device regimes, and a simulator cannot probe the disk as vLLM does)')),
    /** A class of `DEVICE_CLASSES` (nvme_gen4, nvme_gen3, sata_ssd, cpu_dram, s3) giving the figures below. */
    deviceClass: z
      .string()
      .superRefine(rule((c) => (Object.hasOwn(DEVICE_CLASSES, c) ? undefined : `a known device class (${Object.keys(DEVICE_CLASSES).join(', ')})`)))
      .optional(),
    /** Bytes per µs; overrides the class. */
    readBandwidth: z.number().positive().optional(),
    /** Bytes per µs; overrides the class. */
    writeBandwidth: z.number().positive().optional(),
    /** µs per transfer; overrides the class. */
    baseLatency: z.number().nonnegative().optional(),
    /**
     * Queue-depth ramp and jitter, normally from the class only (BLIS's YAML has no such keys);
     * set here to reproduce a recorded trace header whose class this build does not ship.
     */
    saturationQueueDepth: nonNegInt.optional(),
    singleTransferFraction: z.number().optional(),
    latencyJitterStddev: z.number().nonnegative().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const cls = t.deviceClass !== undefined ? DEVICE_CLASSES[t.deviceClass] : undefined;
    if (t.deviceClass === undefined) {
      const explicit = (['readBandwidth', 'writeBandwidth', 'baseLatency'] as const).filter((k) => t[k] !== undefined);
      if (explicit.length < 3)
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: expectedFound('a deviceClass, or all three of readBandwidth, writeBandwidth and baseLatency', explicit.length === 0 ? 'neither' : `only ${explicit.join(' and ')}`),
        });
    }
    const qsat = t.saturationQueueDepth ?? cls?.saturationQueueDepth ?? 1;
    const f1 = t.singleTransferFraction ?? cls?.singleTransferFraction ?? 1;
    if (qsat >= 2 && !(f1 > 0 && f1 <= 1))
      ctx.addIssue({
        code: 'custom',
        path: ['singleTransferFraction'],
        message: expectedFound(`a fraction in (0, 1] when the saturation queue depth is ${qsat}`, String(f1)),
      });
  });

/** BLIS's `kv_offload:` block: the N-tier offload chain. */
export const KVOffloadSchema = z
  .object({
    /** CPU staging bytes per TP rank (required); capacity is `floor(cpuBytesToUse / perBlockBytes)` blocks. */
    cpuBytesToUse: z.number(required('a positive number of bytes per TP rank (required)')).int().positive(),
    /**
     * KV bytes of one GPU block per TP rank. Derived from the model when absent (BLIS has no such
     * key); set it to pin a recorded value, as a replay of a trace header does.
     */
    perBlockBytes: posInt.optional(),
    /** Offload block size in tokens; default the GPU block size, which is the only size supported. */
    blockSize: posInt.optional(),
    /** GPU blocks per offload chunk; default 1, the only value supported. */
    blocksPerChunk: posInt
      .superRefine(rule((n) => (n === 1 ? undefined : '1 (BLIS accepts chunks of several GPU blocks and then panics in its offload mechanism, so they are refused here)')))
      .optional(),
    /** Tokens per block hash; default the GPU block size (informational). */
    tokensPerHash: posInt.optional(),
    /** `lru`, the only policy supported. */
    evictionPolicy: z
      .string()
      .superRefine(rule((p) => (p === 'lru' ? undefined : p === 'arc' ? '"lru" (BLIS accepts "arc" and then panics in its offload mechanism, so it is refused here)' : '"lru"')))
      .default('lru'),
    /** vLLM's default: only prompt KV is offloaded. */
    offloadPromptOnly: z.boolean().default(true),
    selfDescribingKvEvents: z.boolean().default(false),
    /** 0 and 1 are accepted and change nothing; vLLM's tiering offload refuses 2 or more. */
    storeThreshold: z
      .number()
      .int()
      .superRefine(
        rule((n) => (n >= 0 && n < 2 ? undefined : "0 or 1 (both change nothing on the multi-tier path; vLLM's tiering offload refuses 2 or more, and a negative threshold means nothing)")),
      )
      .optional(),
    /** Secondary tiers in the order they are consulted. */
    secondaryTiers: z.array(KVOffloadTierSchema).default([]),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.blockSize !== undefined && o.blocksPerChunk !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['blocksPerChunk'],
        message: expectedFound('at most one of blockSize and blocksPerChunk (they encode the same quantity: blockSize = blocksPerChunk × the GPU block size)', 'both'),
      });
  });

/** Checks the offload block size against the GPU block size `b`, which only the whole config knows. */
export function offloadBlockSizeIssue(blockSize: number | undefined, b: number): string | undefined {
  if (blockSize === undefined || blockSize === b) return undefined;
  if (blockSize % b !== 0) return expectedFound(`the GPU block size ${b} (a block size must be a positive multiple of it)`, String(blockSize));
  return expectedFound(
    `the GPU block size ${b} (${blockSize} tokens means blocksPerChunk ${blockSize / b}, which BLIS accepts and then panics on, so it is refused here)`,
    String(blockSize),
  );
}

export type KVOffloadInput = z.input<typeof KVOffloadSchema>;
export type KVOffloadSettings = z.output<typeof KVOffloadSchema>;
export type KVOffloadTierSettings = z.output<typeof KVOffloadTierSchema>;
