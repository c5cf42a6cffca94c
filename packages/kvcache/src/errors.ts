/** Thrown for calls that can never be valid (negative sizes, releasing what was never held). */
export class KVCacheError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KVCacheError';
  }
}
