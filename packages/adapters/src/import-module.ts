/**
 * `import(specifier)` of a module outside the `blis` binary's bundle: a dependency left
 * external (tinypool, BullMQ, esbuild), a user's policy module, a `data:` URL. The binary runs
 * its bundle as a script compiled through V8's code cache, and Node 20 gives such a script's
 * `import()` no loader (it needs `--experimental-vm-modules`): the launcher lends its own as
 * `globalThis.__blisImport`. Everywhere else this is plain `import()`.
 */
export function importModule<T>(specifier: string): Promise<T> {
  const lent = (globalThis as { __blisImport?: (s: string) => Promise<unknown> }).__blisImport;
  return (lent !== undefined ? lent(specifier) : import(specifier)) as Promise<T>;
}
