import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Typed view of vectors.json, written by gen-vectors.go (see its header for what each list holds).

export interface SeedVectors {
  seed: string;
  int63: string[];
  uint64: string[];
  uint32: number[];
  int31: number[];
  float64: string[];
  expFloat64: string[];
  normFloat64: string[];
  intn: number[];
  intnLarge: number[];
  int31n: number[];
  int31nReject: number[];
  int63n: string[];
  int63nExtra: string[];
  perm: number[];
  shuffle: number[];
}

export interface GoVectors {
  go: string;
  intnNs: number[];
  intnLargeNs: number[];
  int63nExtraNs: string[];
  seeds: SeedVectors[];
  fnv1a64: { input: string; hash: string }[];
  subsystems: { master: string; subsystem: string; derived: string; int63: string[] }[];
  checksums: { method: 'expFloat64' | 'normFloat64' | 'float64' | 'intn128256'; seed: string; draws: number; sha256: string }[];
  log: { x: string; log: string }[];
  wedges: { exp: { i: number; u: string; w: string }[]; norm: { i: number; u: string; w: string }[] };
  tables: { ke: number[]; kn: number[]; weBits: number[]; feBits: number[]; wnBits: number[]; fnBits: number[]; rngCooked: string[]; oneOverRn: string };
}

export const vectors: GoVectors = JSON.parse(readFileSync(join(import.meta.dirname, 'vectors.json'), 'utf8'));

/** Go's shortest float string parses back to the very double; a mismatch reports both. */
export function floatMismatches(expected: string[], draw: () => number): string[] {
  const out: string[] = [];
  expected.forEach((text, k) => {
    const got = draw();
    if (!Object.is(got, Number(text))) out.push(`#${k}: go ${text}, ts ${got}`);
  });
  return out;
}
