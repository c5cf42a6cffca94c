import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type SimulationConfigInput, type SimulationResult, simulate } from '@blis/cluster';
import { createRequestSource, openTraceV2, specFromFlags, writeTraceV2 } from '@blis/workload';
import { type Browser, type Page, chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADLINE } from '../src/headline.js';
import { serveStatic } from './static-server.js';

// Debian's Chromium (`apt-get install chromium`; .ci/run installs it). Without it the test skips.
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const APP = join(import.meta.dirname, '..');
// The README's picture is refreshed on demand only (its "ran in X s" differs every run).
const SCREENSHOT = process.env.BLIS_UPDATE_SCREENSHOTS === '1' ? join(APP, '..', '..', 'docs', 'images', 'playground.png') : join(APP, '..', '..', '.tmp', 'playground.png');

if (!haveChromium) console.warn(`playground e2e: skipped, ${CHROMIUM} is missing (apt-get install chromium)`);

/** The config the page builds from the form as filled in below (what `blis run` would run with the same flags). */
function configFor(seed: number, numRequests: number, rate: number): SimulationConfigInput {
  return {
    seed,
    numInstances: 4,
    model: 'qwen/qwen3-14b',
    routing: { policy: 'round-robin' },
    admission: { policy: 'always-admit' },
    priority: { policy: 'constant' },
    scheduler: { policy: 'fcfs' },
    workload: { kind: 'synthetic', rate, numRequests },
    includeRequests: true,
    timeseriesIntervalUs: 1_000_000,
  };
}

describe.skipIf(!haveChromium)('playground in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    // The test's own build, into a temp dir: it checks the sources as they are, not a stale dist/.
    const outDir = mkdtempSync(join(tmpdir(), 'blis-playground-'));
    await build({ root: APP, configFile: join(APP, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await serveStatic(outDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server.url);
    expect(problems).toEqual([]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Fills the preset form and runs; resolves when the result (or the error list) is shown. */
  async function run(seed: number, numRequests: number, rate: number): Promise<void> {
    await page.check('input[name=workloadKind][value=preset]');
    await page.selectOption('#model', 'qwen/qwen3-14b');
    await page.fill('#num-instances', '4');
    await page.fill('#seed', String(seed));
    await page.fill('#num-requests', String(numRequests));
    await page.fill('#rate', String(rate));
    await page.click('#run');
    await page.waitForSelector('body[data-state=done], body[data-state=error]', { timeout: 170_000 });
  }

  async function shownHeadline(prefix: string): Promise<Record<string, string | undefined>> {
    const out: Record<string, string | undefined> = {};
    for (const h of HEADLINE) out[h.id] = (await page.getAttribute(`#${prefix}-${h.id}`, 'data-value')) ?? undefined;
    return out;
  }

  const expectedHeadline = (r: SimulationResult) => Object.fromEntries(HEADLINE.map((h) => [h.id, typeof r[h.field] === 'number' ? String(r[h.field]) : undefined]));

  it('runs 4 instances x 200 requests in a worker and shows simulate()\'s numbers and the report charts', async () => {
    await run(42, 200, 10);
    expect(await page.textContent('#errors')).toBe('');
    await page.waitForSelector('#charts svg');
    expect(await shownHeadline('result')).toEqual(expectedHeadline(simulate(configFor(42, 200, 10))));
    expect(await page.$$eval('#charts svg', (s) => s.length)).toBeGreaterThan(0);
    // The time series the form asks for (every 1000 ms) is drawn by the report's own section.
    expect(await page.$$eval('#charts-timeseries svg', (s) => s.length)).toBeGreaterThan(0);
    expect(await page.$eval('#progress', (p) => (p as HTMLProgressElement).value)).toBe(1);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  }, 180_000);

  it('keeps two runs as A and B and compares them side by side', async () => {
    await page.click('#keep-a');
    await run(7, 200, 10);
    await page.click('#keep-b');
    await page.waitForSelector('#compare-charts svg');
    expect(await shownHeadline('compare-a')).toEqual(expectedHeadline(simulate(configFor(42, 200, 10))));
    expect(await shownHeadline('compare-b')).toEqual(expectedHeadline(simulate(configFor(7, 200, 10))));
  }, 180_000);

  it('replays an uploaded TraceV2 pair as simulate() replays the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blis-playground-trace-'));
    const [header, data] = [join(dir, 'upload.yaml'), join(dir, 'upload.csv')];
    writeTraceV2(createRequestSource(specFromFlags({ rate: 15, numRequests: 150, seed: 3 })), header, data);
    await page.check('input[name=workloadKind][value=trace]');
    await page.setInputFiles('#trace-header', header);
    await page.setInputFiles('#trace-data', data);
    await page.click('#run');
    await page.waitForSelector('body[data-state=done], body[data-state=error]');
    expect(await page.textContent('#errors')).toBe('');
    const { workload: _, ...config } = configFor(42, 150, 15);
    expect(await shownHeadline('result')).toEqual(expectedHeadline(simulate(config, { source: openTraceV2(header, { dataPath: data }) })));
  }, 60_000);

  it('refuses nonsense numbers before running, one located item per issue', async () => {
    await page.check('input[name=workloadKind][value=preset]');
    await page.fill('#num-instances', '-2');
    await page.fill('#rate', '0');
    await page.click('#run');
    await page.waitForSelector('body[data-state=error]');
    const items = await page.$$eval('#errors li', (li) => li.map((x) => x.textContent));
    expect(items).toEqual(['Instances (numInstances): expected a number > 0, found -2', 'Rate (req/s) (workload.rate): expected a number > 0, found 0']);
  }, 60_000);

  it('shows a malformed uploaded workload spec\'s error with its file and line, and no crash', async () => {
    await page.fill('#num-instances', '4');
    await page.fill('#rate', '10');
    await page.check('input[name=workloadKind][value=spec]');
    await page.setInputFiles('#spec-file', { name: 'bad.yaml', mimeType: 'text/yaml', buffer: Buffer.from('version: "2"\nclients: [a, b\n  seed: 3\n') });
    await page.click('#run');
    await page.waitForSelector('body[data-state=error]');
    const items = await page.$$eval('#errors li', (li) => li.map((x) => x.textContent ?? ''));
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatch(/^bad\.yaml:2: expected valid YAML( \(.*\))?, found /);
    // The page is still usable: the last result stays on screen.
    expect(await page.isVisible('#results')).toBe(true);
  }, 60_000);

  it('times a 10,000-request, 4-instance run in the browser (printed, not asserted)', async () => {
    await run(42, 10_000, 20);
    const ms = Number(await page.getAttribute('#run-time', 'data-ms'));
    console.log(`playground e2e: 10,000 requests on 4 instances simulated in ${(ms / 1000).toFixed(2)} s in Chromium`);
    expect(await page.getAttribute('#result-completed', 'data-value')).toBe(String(simulate(configFor(42, 10_000, 20)).completed_requests));
  }, 180_000);
});
