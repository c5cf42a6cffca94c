import type { RequestSource } from '@blis/engine';
import type { LoadedSpec, RequestSourceOptions } from '@blis/workload';
import { isOpenLoopSpec } from '@blis/workload/internal';
import { exactKey } from './exact-key.js';
import { type RecordedStream, ReplaySource, recordStream } from './replay-source.js';

/** How much a {@link WorkloadMemo} keeps. */
export interface WorkloadMemoLimits {
  /** Streams kept; the oldest goes first (default 32). */
  maxEntries: number;
  /** Rough bytes of all streams kept (default 64 MiB). */
  maxBytes: number;
  /** Streams with more requests than this are not kept (default 20 000). */
  maxRequests: number;
}

const DEFAULT_LIMITS: WorkloadMemoLimits = { maxEntries: 32, maxBytes: 64 * 1024 * 1024, maxRequests: 20_000 };

/**
 * Generated request streams by spec and source options, for a caller that runs the same
 * workloads again and again (`blis evaluate --serve`: a search repeats its scenarios for every
 * candidate). Only an open-loop spec with a request cap that names no file is kept: its stream
 * depends on nothing but the spec and the options. A run replays copies of the requests, so
 * results are those of a fresh stream.
 */
export class WorkloadMemo {
  private readonly entries = new Map<string, RecordedStream>();
  private bytes = 0;
  private readonly limits: WorkloadMemoLimits;
  /** Streams served from memory / generated and kept (for tests and benches). */
  hits = 0;
  misses = 0;

  constructor(limits: Partial<WorkloadMemoLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * A replay of the stream `make` would open for `spec` with `opts`, generated on the first ask;
   * `make()` itself when the stream cannot be kept (closed loop, no cap, too large, or its
   * generation fails: then the run meets the failure where a fresh stream would).
   */
  source(spec: LoadedSpec, opts: RequestSourceOptions, make: () => RequestSource): RequestSource {
    const limit = opts.maxRequests ?? spec.num_requests;
    if (limit === undefined || !(limit <= this.limits.maxRequests) || !isOpenLoopSpec(spec) || namesAFile(spec)) return make();
    const key = exactKey([spec, opts]);
    if (key === undefined) return make();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.hits++;
      return new ReplaySource(hit);
    }
    let stream: RecordedStream | undefined;
    try {
      stream = recordStream(make());
    } catch {
      return make();
    }
    if (stream === undefined) return make();
    this.misses++;
    this.keep(key, stream);
    return new ReplaySource(stream);
  }

  private keep(key: string, stream: RecordedStream): void {
    if (stream.bytes > this.limits.maxBytes) return;
    while (this.entries.size >= this.limits.maxEntries || (this.entries.size > 0 && this.bytes + stream.bytes > this.limits.maxBytes)) {
      const [oldest, s] = this.entries.entries().next().value as [string, RecordedStream];
      this.entries.delete(oldest);
      this.bytes -= s.bytes;
    }
    this.entries.set(key, stream);
    this.bytes += stream.bytes;
  }
}

/**
 * Whether the spec names a file anywhere (an empirical distribution's CSV): the stream then
 * depends on what the file holds when it is opened, which the key does not capture.
 */
function namesAFile(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(namesAFile);
  for (const [k, v] of Object.entries(value)) if ((k === 'file' && typeof v === 'string') || namesAFile(v)) return true;
  return false;
}
