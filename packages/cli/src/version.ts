import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the running module. Every place this code runs from sits one level below the
 * package root: `src/` (sources under tsx or vitest), `dist/` (the ESM and CJS builds, in the
 * workspace or in an installed tarball). The CJS build has `__dirname` and no `import.meta`
 * (tsup leaves it empty), ESM the reverse, so look for `__dirname` first.
 */
function moduleDir(): string | undefined {
  if (typeof __dirname === 'string') return __dirname;
  const url = (import.meta as { url?: string }).url;
  return typeof url === 'string' ? dirname(fileURLToPath(url)) : undefined;
}

let cached: string | undefined;

/**
 * The version in @blis/cli's package.json (npm always packs package.json), read at run time so
 * `blis --version` follows a `changeset version` bump without a code change.
 */
export function cliVersion(): string {
  if (cached !== undefined) return cached;
  const dir = moduleDir();
  let version = '0.0.0-unknown';
  if (dir !== undefined) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@blis/cli' && typeof pkg.version === 'string') version = pkg.version;
    } catch {
      // Unreadable: fall through to the placeholder rather than fail every command.
    }
  }
  cached = version;
  return version;
}
