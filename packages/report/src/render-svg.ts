import type { TopLevelSpec } from 'vega-lite';

type Renderer = { vega: typeof import('vega'); vegaLite: typeof import('vega-lite') };
let loading: Promise<Renderer> | undefined;

/**
 * Vega and Vega-Lite are loaded on first render, not at import: both are ESM with a top-level
 * await (Vega probes for node-canvas), which a CommonJS `require` of this package could not
 * load, and `reportSections` alone (the browser playground) never needs them.
 */
function renderer(): Promise<Renderer> {
  loading ??= loadRenderer();
  return loading;
}

function loadRenderer(): Promise<Renderer> {
  // The `blis` binary lends its bundle a loader (`importModule` in @blis/adapters says why); the
  // literal imports stay for bundlers (the playground), which must see what to bundle.
  const lent = (globalThis as { __blisImport?: (s: string) => Promise<unknown> }).__blisImport;
  const modules = lent !== undefined ? Promise.all([lent('vega'), lent('vega-lite')]) : Promise.all([import('vega'), import('vega-lite')]);
  return (modules as Promise<[Renderer['vega'], Renderer['vegaLite']]>).then(([vega, vegaLite]) => ({ vega, vegaLite }));
}

/**
 * One chart as an SVG string: Vega-Lite compiled to Vega, run headless (`renderer: 'none'`, so
 * no canvas is needed in Node) and serialised. Text is measured by Vega's estimate when no canvas
 * exists, so Node output does not depend on installed fonts.
 */
export async function renderChartSvg(spec: TopLevelSpec): Promise<string> {
  const { vega, vegaLite } = await renderer();
  const vgSpec = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(vgSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Prefixes every id an SVG defines (Vega numbers clip paths and gradients from a process-wide
 * counter) and every reference to one, so several SVGs can share a page and the same chart gets
 * the same ids whatever was rendered before it.
 */
export function scopeSvgIds(svg: string, prefix: string): string {
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) if (!ids.has(m[1])) ids.set(m[1], `${prefix}-${ids.size + 1}`);
  if (ids.size === 0) return svg;
  const swap = (id: string) => ids.get(id) ?? id;
  return svg
    .replace(/(\sid=")([^"]+)(")/g, (_, a: string, id: string, b: string) => a + swap(id) + b)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${swap(id)})`)
    .replace(/(href=")#([^"]+)(")/g, (_, a: string, id: string, b: string) => `${a}#${swap(id)}${b}`);
}
