import type { EvalIssue } from './protocol.js';
import type { BundlePatch } from './policy-bundle-apply.js';

/** What a component's text came to as (a section of) a policy bundle: its config changes, or its faults. */
export type ComponentOutcome = { patch: BundlePatch } | { issues: EvalIssue[] };

const MAX_ENTRIES = 256;
/** Longer texts are not remembered: memory stays under a few MB. */
const MAX_TEXT_CHARS = 16 * 1024;

/**
 * Policy texts (`components.routing`, …) already parsed and validated, by component and text: a
 * search sends the same texts again and again (GEPA mutates one component at a time). Kept per
 * tree loader, whose answer decides whether a text is a tree; trees are never kept. Each answer
 * is a fresh copy, so no caller sees another's changes.
 */
export class ComponentMemo {
  private readonly byLoader = new WeakMap<object, Map<string, ComponentOutcome>>();

  get(loader: object, name: string, text: string): ComponentOutcome | undefined {
    const hit = this.byLoader.get(loader)?.get(`${name}\n${text}`);
    return hit === undefined ? undefined : structuredClone(hit);
  }

  set(loader: object, name: string, text: string, outcome: ComponentOutcome): void {
    if (text.length > MAX_TEXT_CHARS) return;
    let entries = this.byLoader.get(loader);
    if (entries === undefined) this.byLoader.set(loader, (entries = new Map()));
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(`${name}\n${text}`, structuredClone(outcome));
  }
}
