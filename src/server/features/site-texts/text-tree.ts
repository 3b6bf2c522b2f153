// A namespace's texts are a tree of objects and arrays with strings at the leaves (public/locales);
// the editor addresses each leaf by its dotted path: `hero.title`, `offers.items.0.body`.

export type TextTree = Record<string, unknown>;

/** Every leaf of a namespace as dotted path → text, in file order. */
export function flattenTexts(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'string') out.set(path, node);
    else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, path ? `${path}.${key}` : key);
    }
  };
  walk(tree, prefix);
  return out;
}

/**
 * A copy of `tree` with the leaves of `values` replaced. Only paths that exist are written: an
 * edit can change a text, never the shape the pages read.
 */
export function withTexts(tree: TextTree, values: ReadonlyMap<string, string>): TextTree {
  if (values.size === 0) return tree;
  const copy = structuredClone(tree);
  for (const [path, value] of values) {
    const parts = path.split('.');
    const last = parts.pop() as string;
    let node: unknown = copy;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node && typeof node === 'object' && typeof (node as Record<string, unknown>)[last] === 'string') {
      (node as Record<string, unknown>)[last] = value;
    }
  }
  return copy;
}
