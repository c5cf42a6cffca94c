import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from './blis-process.js';

// What a start-up of the binary loads is what its command needs: Node built-ins that cost
// milliseconds to load (node:child_process for commander's executable subcommands,
// node:worker_threads for the policy watchdog and the evaluation sandbox) stay unloaded by
// commands that never use them.

const work = mkdtempSync(join(tmpdir(), 'blis-startup-builtins-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const probe = join(work, 'builtins.cjs');
// Preloaded into the CLI process: lists, at exit, the built-ins it loaded.
writeFileSync(
  probe,
  "process.on('exit', () => process.stderr.write('builtins: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(',') + '\\n'));\n",
);

/** The built-ins `blis ARGS` loaded (through the test build), after checking it succeeded. */
function builtinsOf(args: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-r', probe, inject('blisTestBin'), ...args], { cwd: ROOT, encoding: 'utf8' }, (err, _stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      const line = stderr.split('\n').find((l) => l.startsWith('builtins: '));
      if (line === undefined) return reject(new Error(`no builtins line in ${stderr}`));
      resolve(line.slice('builtins: '.length).split(','));
    });
  });
}

describe.skipIf(inject('blisTestBin') === '')('built-ins a start-up loads', () => {
  it('--version and a simulation load neither node:child_process nor node:worker_threads', async () => {
    for (const args of [['--version'], ['run', '--num-requests', '5', '--quiet']]) {
      const loaded = await builtinsOf(args);
      // The probe itself works: what every start-up loads is listed.
      expect(loaded).toContain('fs');
      expect(loaded, args.join(' ')).not.toContain('child_process');
      expect(loaded, args.join(' ')).not.toContain('worker_threads');
    }
  }, 60_000);

  it('a simulation with a policy module loads the watchdog thread it needs', async () => {
    const mod = join(work, 'route.mjs');
    writeFileSync(mod, "export default () => ({ name: 'first', route: () => ({ instance: 0, reason: 'first' }) });\n");
    const loaded = await builtinsOf(['run', '--num-requests', '5', '--quiet', '--num-instances', '2', '--routing-policy', mod]);
    expect(loaded).toContain('worker_threads');
  }, 60_000);
});
