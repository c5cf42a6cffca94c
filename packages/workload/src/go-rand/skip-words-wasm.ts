import { SCALAR_MODULE, SIMD_MODULE } from './skip-words-bytes.js';

// Go's rngSource adds 64-bit words. JavaScript has only two 32-bit halves and a carry for that
// (~9 ns a word); WebAssembly's i64.add takes ~0.5 ns, and i64x2.add, four words to a loop turn,
// ~0.2 ns. BLIS draws one token id per prompt and output token, so a run skips about a thousand
// words per request. A source that skips through WebAssembly moves its ring into an instance's
// memory for good and reads it there from then on (GoRandSource.next() in JavaScript works on the
// same words through a Uint32Array view), so no skip copies the ring. Where WebAssembly is missing
// (a page whose CSP forbids it) or memory is big-endian (the view would see wasm's little-endian
// words swapped), rings stay in JavaScript and skips loop there: the same words either way.

/** The ring's 607 words as 1,214 little-endian 32-bit halves (GoRandSource's layout). */
export const RING_HALVES = 1214;
const RING_BYTES = 4 * RING_HALVES;
/**
 * Each instance has one 64 KiB page and never grows it (growing detaches every view on the old
 * buffer), so it holds 13 rings; a 14th source gets a new instance. Memory stays ~5 KB a source.
 */
const RINGS_PER_HOST = Math.floor(65536 / RING_BYTES);

/** The modules' `skip(base, tap, feed, count, max)`: the new tap and feed, packed as tap * 1024 + feed. */
type SkipFn = (base: number, tap: number, feed: number, count: number, max: number) => number;

/** One instance: its memory and the byte offsets of its unused ring slots. */
interface Host {
  readonly buffer: ArrayBuffer;
  readonly skip: SkipFn;
  readonly free: number[];
  readonly pool: Pool;
}

/** The instances of one module; `open` are those with a free slot. */
interface Pool {
  readonly module: object;
  readonly open: Host[];
  /** Slots that hold a ring whose source has not been collected yet. */
  inUse: number;
  /** An instance could not be made; no new one is tried until a slot is freed. */
  full: boolean;
}

/** A ring that lives in an instance's memory, at byte `base`, skipped by `skip`. */
export interface ResidentRing {
  readonly ring: Uint32Array<ArrayBuffer>;
  readonly base: number;
  readonly skip: SkipFn;
}

/** The little of the WebAssembly JS API used here (the lib settings of core packages declare none of it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { mem: { buffer: ArrayBuffer }; skip: SkipFn } };
}

const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function compile(bytes: Uint8Array): Pool | null {
  if (wasm === undefined || !littleEndian) return null;
  try {
    // A synchronous compile is allowed on a browser's main thread for modules under 4 KB.
    return { module: new wasm.Module(bytes), open: [], inUse: 0, full: false };
  } catch {
    return null;
  }
}

/** Skips through skip-words-simd.wat, skip-words-scalar.wat, or the JavaScript loop. */
export type SkipEngine = 'simd' | 'scalar' | 'js';

const pools = new Map<SkipEngine, Pool | null>();
let current: Pool | null | undefined;

function pool(engine: SkipEngine): Pool | null {
  let p = pools.get(engine);
  if (p === undefined) {
    p = engine === 'js' ? null : compile(engine === 'simd' ? SIMD_MODULE : SCALAR_MODULE);
    pools.set(engine, p);
  }
  return p;
}

/**
 * For tests only (not exported by the package): makes rings that move from now on go to `engine`'s
 * instances, or (`'js'`) stay in JavaScript; `undefined` restores the default. Rings already
 * moved stay with the instance they are in.
 */
export function selectSkipEngineForTests(engine: SkipEngine | undefined): void {
  current = engine === undefined ? undefined : pool(engine);
}

/** For tests only: how many slots of `engine`'s instances hold the ring of a source not yet collected (-1: no WebAssembly). */
export function ringSlotsInUseForTests(engine: Exclude<SkipEngine, 'js'>): number {
  return pool(engine)?.inUse ?? -1;
}

/** A dead source's slot is free again: a run may make and drop many sources (per-client streams, sessions). */
const registry =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<{ host: Host; base: number }>(({ host, base }) => release(host, base)) : null;

function release(host: Host, base: number): void {
  const { free, pool: p } = host;
  p.inUse--;
  p.full = false;
  free.push(base);
  if (free.length === 1) p.open.push(host);
  // An empty instance other than the last open one is dropped, so that its page can be collected.
  if (free.length === RINGS_PER_HOST && p.open.length > 1) p.open.splice(p.open.indexOf(host), 1);
}

function newHost(p: Pool): Host | null {
  try {
    const { exports } = new wasm!.Instance(p.module);
    const free: number[] = [];
    for (let k = RINGS_PER_HOST - 1; k >= 0; k--) free.push(k * RING_BYTES);
    return { buffer: exports.mem.buffer, skip: exports.skip, free, pool: p };
  } catch {
    return null;
  }
}

/**
 * Moves `ring` into a free slot of an instance's memory, for `owner` to use from now on in its
 * place; the slot is freed when `owner` is collected. Null where WebAssembly cannot run here, or
 * when no instance can be made (V8 reserves gigabytes of address space per wasm memory: Node 20 on
 * x64 refused a 13,072nd live one, which is ~170,000 live sources here), and that source's ring
 * stays in JavaScript.
 */
export function moveRingIn(owner: object, ring: Uint32Array): ResidentRing | null {
  // SIMD first, once: an engine without it (or with it switched off) refuses the module.
  if (current === undefined) current = pool('simd') ?? pool('scalar');
  const p = current;
  if (p === null) return null;
  let host = p.open[p.open.length - 1];
  if (host === undefined) {
    const made = p.full ? null : newHost(p);
    if (made === null) {
      p.full = true;
      return null;
    }
    p.open.push(made);
    host = made;
  }
  const base = host.free.pop()!;
  if (host.free.length === 0) p.open.pop();
  p.inUse++;
  const view = new Uint32Array(host.buffer, base, RING_HALVES);
  view.set(ring);
  registry?.register(owner, { host, base });
  return { ring: view, base, skip: host.skip };
}
