import { describe, expect, it } from 'vitest';
import { expandableKeys, navigate, visibleItems, type NavNode } from './tree-nav';

// Two branches: growth (an argument, its challenge, a reply to that) and control (one leaf argument).
const n = (key: string, ...children: NavNode[]): NavNode => ({ key, children });
const TREE = [n('growth', n('D1-c1', n('D2-q1', n('D9-c1'))), n('D3-c1')), n('control', n('D3-c2'))];

/** Presses keys in order from `start`, as the view does, and returns where the focus went. */
function press(keys: string[], start = 'growth', expanded: Set<string> = new Set()) {
  let focus = start;
  let open = expanded;
  for (const key of keys) {
    const r = navigate(TREE, open, focus, key);
    if (r) ({ focus, expanded: open } = r);
  }
  return { focus, expanded: open, visible: visibleItems(TREE, open).map((i) => i.key) };
}

describe('reasoning tree keyboard navigation (WAI-ARIA tree pattern)', () => {
  it('shows only the roots while collapsed, and children in reading order once expanded', () => {
    expect(visibleItems(TREE, new Set()).map((i) => i.key)).toEqual(['growth', 'control']);
    expect(visibleItems(TREE, new Set(['growth', 'D1-c1'])).map((i) => i.key)).toEqual(['growth', 'D1-c1', 'D2-q1', 'D3-c1', 'control']);
  });

  it('moves down and up among visible items and stops at the ends', () => {
    expect(press(['ArrowDown']).focus).toBe('control');
    expect(press(['ArrowDown', 'ArrowDown']).focus).toBe('control');
    expect(press(['ArrowUp']).focus).toBe('growth');
    expect(press(['End']).focus).toBe('control');
    expect(press(['End', 'Home']).focus).toBe('growth');
  });

  it('expands with Right, then steps into the first child; Left collapses, then goes to the parent', () => {
    const opened = press(['ArrowRight']);
    expect(opened.focus).toBe('growth');
    expect(opened.visible).toEqual(['growth', 'D1-c1', 'D3-c1', 'control']);
    expect(press(['ArrowRight', 'ArrowRight']).focus).toBe('D1-c1');
    const deep = press(['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight']);
    expect(deep.focus).toBe('D9-c1');
    // A leaf does not move on Right.
    expect(press(['ArrowRight'], 'D9-c1', deep.expanded).focus).toBe('D9-c1');
    expect(press(['ArrowLeft'], 'D9-c1', deep.expanded).focus).toBe('D2-q1');
    const collapsed = press(['ArrowLeft', 'ArrowLeft'], 'D9-c1', deep.expanded);
    expect(collapsed.focus).toBe('D2-q1');
    expect(collapsed.visible).not.toContain('D9-c1');
    // Down skips what is collapsed.
    expect(press(['ArrowDown'], 'D2-q1', collapsed.expanded).focus).toBe('D3-c1');
    // Left on a collapsed root stays put.
    expect(press(['ArrowLeft'], 'control').focus).toBe('control');
  });

  it('expands all siblings with * and lists every expandable key for "expand all"', () => {
    expect(press(['*']).visible).toEqual(['growth', 'D1-c1', 'D3-c1', 'control', 'D3-c2']);
    expect(expandableKeys(TREE)).toEqual(['growth', 'D1-c1', 'D2-q1', 'control']);
  });

  it('leaves other keys to the browser and recovers a focus that disappeared', () => {
    expect(navigate(TREE, new Set(), 'growth', 'Tab')).toBeNull();
    expect(navigate(TREE, new Set(), 'gone', 'ArrowDown')!.focus).toBe('growth');
    expect(navigate([], new Set(), 'gone', 'ArrowDown')).toBeNull();
  });
});
