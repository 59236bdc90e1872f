// Keyboard movement in the reasoning-tree view, following the WAI-ARIA tree pattern
// (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/): one item holds the focus (roving
// tabindex), the arrows walk the visible items. Pure, so it is tested without a browser.
export type NavNode = { key: string; children: NavNode[] };

export type VisibleItem = { key: string; parent: string | null; expandable: boolean; expanded: boolean };

/** The items a reader can reach now: roots, and children of expanded items, in reading order. */
export function visibleItems(roots: NavNode[], expanded: ReadonlySet<string>): VisibleItem[] {
  const out: VisibleItem[] = [];
  const walk = (nodes: NavNode[], parent: string | null) => {
    for (const n of nodes) {
      const open = n.children.length > 0 && expanded.has(n.key);
      out.push({ key: n.key, parent, expandable: n.children.length > 0, expanded: open });
      if (open) walk(n.children, n.key);
    }
  };
  walk(roots, null);
  return out;
}

export type NavResult = { focus: string; expanded: Set<string> };

/**
 * What a key press does from the focused item: the item to focus next and the expanded set
 * after it. Null for keys the tree does not handle (Tab, Enter on a leaf…), so the browser
 * keeps its default.
 */
export function navigate(roots: NavNode[], expanded: ReadonlySet<string>, current: string, key: string): NavResult | null {
  const items = visibleItems(roots, expanded);
  const at = items.findIndex((i) => i.key === current);
  if (at < 0) return items.length ? { focus: items[0].key, expanded: new Set(expanded) } : null;
  const item = items[at];
  const next = new Set(expanded);
  switch (key) {
    case 'ArrowDown':
      return { focus: items[Math.min(at + 1, items.length - 1)].key, expanded: next };
    case 'ArrowUp':
      return { focus: items[Math.max(at - 1, 0)].key, expanded: next };
    case 'Home':
      return { focus: items[0].key, expanded: next };
    case 'End':
      return { focus: items[items.length - 1].key, expanded: next };
    case 'ArrowRight':
      if (!item.expandable) return { focus: current, expanded: next };
      if (!item.expanded) {
        next.add(current);
        return { focus: current, expanded: next };
      }
      return { focus: items[at + 1].key, expanded: next };
    case 'ArrowLeft':
      if (item.expanded) {
        next.delete(current);
        return { focus: current, expanded: next };
      }
      return { focus: item.parent ?? current, expanded: next };
    case '*':
      // Expands every sibling of the focused item, as the pattern recommends.
      for (const sibling of items.filter((i) => i.parent === item.parent && i.expandable)) next.add(sibling.key);
      return { focus: current, expanded: next };
    default:
      return null;
  }
}

/** Every key that has children: "expand all". */
export function expandableKeys(roots: NavNode[]): string[] {
  const out: string[] = [];
  const walk = (nodes: NavNode[]) => {
    for (const n of nodes) {
      if (n.children.length) out.push(n.key);
      walk(n.children);
    }
  };
  walk(roots);
  return out;
}
