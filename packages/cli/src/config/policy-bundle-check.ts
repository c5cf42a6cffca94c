import { keyText } from '@blis/workload/internal';
import { messageText, splitPolicyMessage } from '@blis/policies/internal';
import { type PolicyBundle, type PolicyRegistry, parsePolicyBundle } from '@blis/policies';
import type { BundleModules } from '../policy-modules/bundle-modules.js';
import { UsageError } from '../errors/usage-error.js';
import type { YamlFile } from '../inputs/yaml-file.js';

/** `routing.scorers[0].name`, each key as the file's field paths show keys (an excerpt when odd). */
function keyPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${keyText(p)}`)).join('');
}

/**
 * Validates a `--policy-config` file (its module references already taken out and loaded, see
 * policy-modules/); problems name the file, line and key.
 */
export function checkPolicyBundle(b: BundleModules, registry: PolicyRegistry): { bundle: PolicyBundle; file: YamlFile } {
  const { file } = b;
  const r = parsePolicyBundle(b.value, registry);
  if (!r.success) {
    throw new UsageError(
      r.issues.map((i) => {
        // A section that wrote `type:` is named as written.
        const path = i.path.length >= 2 && i.path[1] === 'policy' && b.typeSections.has(String(i.path[0])) ? [i.path[0], 'type', ...i.path.slice(2)] : i.path;
        const pathText = keyPath(path);
        const line = file.lineOf(path);
        const { expected, found } = splitPolicyMessage(i.message, i.path);
        // A key or value of the file can be long or hold control characters: quoted as excerpts.
        // A number YAML could not hold exactly is shown as written (9007199254740993, not ...992).
        const written = file.numberText(path);
        return { where: `${file.path}${line !== undefined ? `:${line}` : ''} ${pathText}`, expected: messageText(expected, 300), found: written !== undefined ? messageText(written, 100) : messageText(found, 100) };
      }),
    );
  }
  return { bundle: r.bundle, file };
}
