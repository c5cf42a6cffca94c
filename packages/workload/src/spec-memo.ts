/**
 * Validated specs by their JSON text, for callers that validate the same inline spec again and
 * again (`blis evaluate --serve`: every request of a search repeats its scenarios, and a spec's
 * validation cost more than simulating a short scenario). Only what JSON states exactly is
 * remembered, so two specs share an entry only when they are the same data; each answer is a
 * fresh copy, so no caller sees another's changes.
 */
const MAX_ENTRIES = 64;
/** Specs whose text is longer (inline value lists) are not remembered: memory stays a few MB. */
const MAX_KEY_CHARS = 64 * 1024;

export class SpecMemo<T> {
  private readonly entries = new Map<string, T>();

  /** The text `raw` is remembered under, or undefined when JSON cannot state it exactly or it is long. */
  keyOf(raw: unknown): string | undefined {
    let key: string;
    try {
      key = JSON.stringify(raw, exactJson);
    } catch {
      return undefined;
    }
    return key.length <= MAX_KEY_CHARS ? key : undefined;
  }

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit === undefined ? undefined : structuredClone(hit);
  }

  set(key: string, value: T): void {
    let copy: T;
    try {
      copy = structuredClone(value);
    } catch {
      return;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, copy);
  }
}

/** A JSON.stringify replacer that refuses what the text would not state exactly. */
function exactJson(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (typeof original === 'number' && (!Number.isFinite(original) || Object.is(original, -0))) throw new Error('inexact');
  if (original === undefined || typeof original === 'function' || typeof original === 'symbol' || typeof original === 'bigint') throw new Error('inexact');
  if (original !== null && typeof original === 'object' && !Array.isArray(original) && Object.getPrototypeOf(original) !== Object.prototype && Object.getPrototypeOf(original) !== null)
    throw new Error('inexact');
  return value;
}
