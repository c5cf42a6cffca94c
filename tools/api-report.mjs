#!/usr/bin/env node
// `pnpm api:report` writes, and `pnpm api:check` (CI) verifies, one API Extractor report per
// published entry point: `packages/<pkg>/api/<entry>.api.md`, the exported names and their
// declared types as a user of the built package sees them (`dist/*.d.ts`). A change to a
// package's public surface then shows in review as a change to its report, and CI fails when a
// surface moved without the report being regenerated.
//
// API Extractor takes one entry point per run, so each subpath of `exports` (`.`, `./testing`,
// ...) gets a run and a report of its own. `--sizes` also prints each entry point's count of
// runtime and type-only names. Needs `pnpm build` first.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { firstDifferences, normalizeReport } from './lib/api-report-text.mjs';
import { exportSubpaths, publishablePackages, repoRoot, requireBuilt } from './lib/packages.mjs';

const check = process.argv.includes('--check');
const pkgs = publishablePackages();
requireBuilt(pkgs);

/** The ESM declaration file a subpath's `import` condition names, or undefined. */
function typesOf(manifest, subpath) {
  const entry = subpath === '.' && typeof manifest.exports === 'string' ? manifest.exports : manifest.exports?.[subpath];
  const types = entry?.import?.types;
  return typeof types === 'string' ? types : undefined;
}

/** `cluster` for `.`, `cluster-testing` for `./testing`: the report's file stem. */
function reportStem(pkgDir, subpath) {
  const pkg = basename(pkgDir);
  return subpath === '.' ? pkg : `${pkg}-${subpath.slice(2).replaceAll('/', '-')}`;
}

// Messages that describe our conventions rather than defects: we mark nothing with release
// tags (the package's exports map is the release boundary) and do not roll up .d.ts files.
const quiet = { logLevel: ExtractorLogLevel.None, addToApiReportFile: false };
const messages = {
  compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
  extractorMessageReporting: {
    default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
    'ae-missing-release-tag': quiet,
    'ae-internal-missing-underscore': quiet,
    // One line per undocumented member, each with a .d.ts line number: any comment edit moved
    // hundreds of them, and the report said nothing about the surface itself.
    'ae-undocumented': quiet,
    // A type reachable from the surface but not exported by name is worth seeing in the
    // report (typedoc's own check already fails the build on those it documents).
    'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
  },
  tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
};

/**
 * Runtime names (values a user can import and call) and type-only names in a report: the
 * size of a promise kept under semver.
 */
function surfaceCounts(reportPath) {
  if (!existsSync(reportPath)) return 'no report';
  const text = readFileSync(reportPath, 'utf8');
  const runtime = text.match(/^export (?:const|let|var|function|class|abstract class|enum|const enum|namespace)\b/gm)?.length ?? 0;
  const types = text.match(/^export (?:type|interface)\b/gm)?.length ?? 0;
  return `${runtime} runtime names, ${types} types`;
}

const surfaces = [];
let failed = 0;
let changed = 0;
let count = 0;
for (const pkg of pkgs) {
  const reportFolder = join(pkg.dir, 'api');
  const expected = new Set();
  for (const subpath of exportSubpaths(pkg.manifest)) {
    const types = typesOf(pkg.manifest, subpath);
    if (types === undefined || !types.endsWith('.d.ts')) continue;
    const entry = join(pkg.dir, types);
    if (!existsSync(entry)) {
      process.stderr.write(`${pkg.name} ${subpath}: ${relative(repoRoot, entry)} is missing; run \`pnpm build\`\n`);
      failed++;
      continue;
    }
    const stem = reportStem(pkg.dir, subpath);
    expected.add(`${stem}.api.md`);
    mkdirSync(reportFolder, { recursive: true });
    // API Extractor writes its report into a scratch folder; the committed one is compared
    // (or replaced) here, after normalizing, so that only surface changes count.
    const tempFolder = join(repoRoot, '.tmp', 'api-report');
    const scratch = join(tempFolder, 'out');
    rmSync(join(scratch, `${stem}.api.md`), { force: true });
    mkdirSync(scratch, { recursive: true });
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: pkg.dir,
        mainEntryPointFilePath: entry,
        compiler: {
          overrideTsconfig: {
            compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: ['node'] },
            include: [types],
          },
        },
        apiReport: { enabled: true, reportFileName: `${stem}.api.md`, reportFolder: scratch, reportTempFolder: tempFolder },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages,
      },
      configObjectFullPath: join(pkg.dir, 'api-extractor.json'),
      packageJsonFullPath: join(pkg.dir, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: true,
      showVerboseMessages: false,
      messageCallback: (m) => {
        // Progress chatter goes nowhere; warnings and errors are reported below with the entry.
        // So is its note about the scratch report it writes (compared below, not by it).
        if (m.logLevel === ExtractorLogLevel.Info || m.logLevel === ExtractorLogLevel.Verbose || m.messageId.startsWith('console-api-report')) m.handled = true;
      },
    });
    count++;
    const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    const committedPath = join(reportFolder, `${stem}.api.md`);
    const built = existsSync(join(scratch, `${stem}.api.md`)) ? normalizeReport(readFileSync(join(scratch, `${stem}.api.md`), 'utf8')) : undefined;
    // Line endings are not the surface either (a checkout may convert them); report mode
    // still rewrites a file whose bytes differ, so the committed ones end up with LF.
    const raw = existsSync(committedPath) ? readFileSync(committedPath, 'utf8') : undefined;
    const committed = raw?.replace(/\r\n/g, '\n');
    if (built !== undefined && (check ? built !== committed : built !== raw)) {
      changed++;
      if (check) {
        process.stderr.write(`${name}: public surface differs from ${relative(repoRoot, committedPath)} (run \`pnpm build && pnpm api:report\` and commit the report)\n`);
        process.stderr.write(`${committed === undefined ? '  no committed report' : firstDifferences(committed, built)}\n`);
      } else {
        writeFileSync(committedPath, built);
        process.stdout.write(`${name}: report updated\n`);
      }
    }
    surfaces.push(`${name}: ${surfaceCounts(committedPath)}`);
    // A changed report alone fails the run through `changed` (check mode), not as an error.
    if (result.errorCount > 0 || built === undefined) {
      process.stderr.write(`${name}: API Extractor failed with ${result.errorCount} error(s), ${result.warningCount} warning(s)\n`);
      failed++;
    }
  }
  // A report whose entry point is gone is stale.
  if (existsSync(reportFolder)) {
    for (const f of readdirSync(reportFolder)) {
      if (!f.endsWith('.api.md') || expected.has(f)) continue;
      if (check) {
        process.stderr.write(`${relative(repoRoot, join(reportFolder, f))}: no entry point of ${pkg.name} has this report any more (run \`pnpm api:report\`)\n`);
        changed++;
      } else {
        rmSync(join(reportFolder, f));
        process.stdout.write(`${relative(repoRoot, join(reportFolder, f))}: removed (its entry point is gone)\n`);
      }
    }
  }
}

if (process.argv.includes('--sizes')) process.stdout.write(`${surfaces.join('\n')}\n`);
process.stdout.write(`${count} entry points, ${changed} report(s) ${check ? 'out of date' : 'updated'}, ${failed} failure(s)\n`);
process.exit(failed > 0 || (check && changed > 0) ? 1 : 0);
