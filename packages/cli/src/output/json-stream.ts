import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` followed by a newline, byte for byte, but in
 * chunks: a results file holds every request (about 450 bytes each), and one string of millions
 * of them passes V8's heap limit (4 GiB by default) or its longest string (2^29 characters)
 * after the whole run has been simulated. Arrays and objects too large to serialise at once are
 * walked; everything small (a request's record, a number) is serialised by JSON.stringify, which
 * is far faster than any walk in JavaScript.
 */
export function writeJsonChunks(value: unknown, sink: (chunk: string) => void, sizes: Partial<ChunkSizes> = {}, finalNewline = true): void {
  const out = new ChunkBuffer(sink, sizes.chunkChars ?? 1 << 20, sizes.smallNodes ?? 4096);
  emitValue(out, value, '');
  if (finalNewline) out.put('\n');
  out.end();
}

/**
 * Writes `value` (as {@link writeJsonChunks}) to the file at `path`, replacing it. `finalNewline`
 * false ends the file at its closing brace, as Go's json.MarshalIndent written out by BLIS does.
 */
export function writeJsonFile(path: string, value: unknown, finalNewline = true): void {
  const fd = openSync(path, 'w');
  try {
    writeJsonChunks(value, (chunk) => writeAll(fd, Buffer.from(chunk, 'utf8')), {}, finalNewline);
  } finally {
    closeSync(fd);
  }
}

/** Writes `value` (as {@link writeJsonChunks}) to stdout. */
export function writeJsonStdout(value: unknown): void {
  writeJsonChunks(value, (chunk) => process.stdout.write(chunk));
}

function writeAll(fd: number, bytes: Buffer): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}

export interface ChunkSizes {
  /** Characters handed to the sink at once (the last chunk may be shorter). */
  chunkChars: number;
  /** Nodes (values, at every depth) a value may hold and still be serialised by one JSON.stringify call. */
  smallNodes: number;
}

/** Collects small pieces and hands them on once they make a chunk. */
class ChunkBuffer {
  private text = '';
  constructor(
    private readonly sink: (chunk: string) => void,
    private readonly chunkChars: number,
    readonly smallNodes: number,
  ) {}

  put(s: string): void {
    this.text += s;
    if (this.text.length >= this.chunkChars) this.end();
  }

  end(): void {
    if (this.text === '') return;
    this.sink(this.text);
    this.text = '';
  }
}

/** JSON.stringify leaves these out of objects and writes them as null in arrays. */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function emitValue(out: ChunkBuffer, v: unknown, indent: string): void {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function' && weigh(v, out.smallNodes) < 0) {
    if (Array.isArray(v)) emitArray(out, v, indent);
    else emitObject(out, v as Record<string, unknown>, indent);
    return;
  }
  const s = JSON.stringify(v, null, 2);
  // A JSON string holds no raw newline, so every newline is a line break to indent.
  out.put(indent === '' ? s : s.replaceAll('\n', `\n${indent}`));
}

function emitArray(out: ChunkBuffer, a: readonly unknown[], indent: string): void {
  const inner = `${indent}  `;
  out.put('[');
  for (let i = 0; i < a.length; i++) {
    out.put(i === 0 ? `\n${inner}` : `,\n${inner}`);
    const item = a[i];
    emitValue(out, omitted(item) ? null : item, inner);
  }
  out.put(a.length === 0 ? ']' : `\n${indent}]`);
}

function emitObject(out: ChunkBuffer, o: Record<string, unknown>, indent: string): void {
  const inner = `${indent}  `;
  let first = true;
  out.put('{');
  for (const key of Object.keys(o)) {
    const item = o[key];
    if (omitted(item)) continue;
    out.put(`${first ? '' : ','}\n${inner}${JSON.stringify(key)}: `);
    first = false;
    emitValue(out, item, inner);
  }
  out.put(first ? '}' : `\n${indent}}`);
}

/** What is left of `budget` after counting the nodes of `v`; negative once it runs out. */
function weigh(v: unknown, budget: number): number {
  if (v === null || typeof v !== 'object') return budget - 1;
  const items: readonly unknown[] = Array.isArray(v) ? v : Object.values(v);
  let left = budget - 1 - items.length;
  for (let i = 0; i < items.length && left >= 0; i++) {
    const x = items[i];
    if (x !== null && typeof x === 'object') left = weigh(x, left + 1);
  }
  return left;
}
