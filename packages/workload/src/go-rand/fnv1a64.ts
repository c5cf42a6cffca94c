// FNV-1a, 64-bit (Go's hash/fnv New64a), over the UTF-8 bytes of a string: BLIS hashes subsystem
// names with it to derive their seeds, so it must agree with Go byte for byte.

const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;

/** Calls `emit` with the UTF-8 bytes of `text`; a lone surrogate becomes U+FFFD, as TextEncoder does. */
function utf8Bytes(text: string, emit: (byte: number) => void): void {
  for (const ch of text) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) {
      emit(cp);
    } else if (cp < 0x800) {
      emit(0xc0 | (cp >> 6));
      emit(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      emit(0xe0 | (cp >> 12));
      emit(0x80 | ((cp >> 6) & 0x3f));
      emit(0x80 | (cp & 0x3f));
    } else {
      emit(0xf0 | (cp >> 18));
      emit(0x80 | ((cp >> 12) & 0x3f));
      emit(0x80 | ((cp >> 6) & 0x3f));
      emit(0x80 | (cp & 0x3f));
    }
  }
}

/**
 * FNV-1a 64 of `input` (a string is hashed as its UTF-8 bytes, as Go hashes `[]byte(s)`), as an
 * unsigned 64-bit bigint: Go's `Sum64()`. The encoder is written out rather than TextEncoder so
 * that it also runs where TextEncoder is absent.
 */
export function fnv1a64(input: string | Uint8Array): bigint {
  let h = OFFSET_BASIS;
  const step = (byte: number): void => {
    h = BigInt.asUintN(64, (h ^ BigInt(byte)) * PRIME);
  };
  if (typeof input === 'string') utf8Bytes(input, step);
  else for (const byte of input) step(byte);
  return h;
}
