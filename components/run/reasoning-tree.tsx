'use client';
// The reasoning tree of lib/eval/tree.ts as a WAI-ARIA tree: root = final claim, a branch per
// factor-level topic, then argument → challenge or rebuttal → reply. One item holds the tab
// stop (roving tabindex); the arrow keys follow lib/eval/tree-nav.ts. Breadth, per-branch
// depth and REI come straight from buildReasoningTree, the same numbers the metrics report.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/layout';
import type { RunViewTurn } from '@/lib/report/run-doc';
import { buildReasoningTree, type TreeNode } from '@/lib/eval/tree';
import { expandableKeys, navigate, visibleItems } from '@/lib/eval/tree-nav';
import { useT } from '@/lib/i18n/client';
import { isFactorId } from '@/lib/domain/factors';
import { treeMessages } from '@/lib/i18n/messages/tree';
import { useFactorName } from '@/components/run/content-language';

type Props = {
  turns: Pick<RunViewTurn, 'step' | 'team' | 'act' | 'status' | 'output'>[];
  /** The run page's path when the tree sits on another page; node links are then `<runHref>#turn-D5`. */
  runHref?: string;
  headingLevel?: 2 | 3;
};

const LINK = 'text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300';
const TEAM_MARK = { affirmative: '+', negative: '−', neutral: '·' } as const;

type Item = { key: string; label: string; node?: TreeNode; depth?: number; children: Item[] };

export function ReasoningTreeView({ turns, runHref = '', headingLevel = 2 }: Props) {
  const t = useT(treeMessages);
  // Branches are named in the run's language, like the arguments under them.
  const factorName = useFactorName();
  const id = useId();
  const tree = useMemo(
    () => buildReasoningTree(turns.filter((x) => x.status === 'done').map((x) => ({ stepId: x.step, team: x.team, act: x.act, output: x.output }))),
    [turns],
  );
  const items = useMemo<Item[]>(() => {
    const fromNode = (n: TreeNode): Item => ({ key: n.key, label: n.text, node: n, children: n.children.map(fromNode) });
    return tree.branches.map((b) => {
      const topic = isFactorId(b.factor) ? factorName(b.factor) : b.topic;
      return { key: `branch:${b.factor}`, label: topic, depth: b.depth, children: b.nodes.map(fromNode) };
    });
  }, [tree, factorName]);
  const all = useMemo(() => expandableKeys(items), [items]);
  // Collapsed rather than expanded keys: on a live run, branches that appear later open by default.
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const expanded = useMemo(() => new Set(all.filter((k) => !collapsed.has(k))), [all, collapsed]);
  const visible = visibleItems(items, expanded);
  const [focus, setFocus] = useState<string | null>(null);
  const tabStop = focus && visible.some((v) => v.key === focus) ? focus : (visible[0]?.key ?? null);
  const refs = useRef(new Map<string, HTMLLIElement>());
  const moved = useRef(false);

  useEffect(() => {
    if (moved.current && tabStop) refs.current.get(tabStop)?.focus();
    moved.current = false;
  }, [tabStop, expanded]);

  const setExpanded = (next: Set<string>) => setCollapsed(new Set(all.filter((k) => !next.has(k))));

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const li = (e.target as HTMLElement).closest<HTMLLIElement>('[role="treeitem"]');
    const key = li?.dataset.key;
    if (!key || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Enter' || e.key === ' ') {
      // Enter follows the node's link to its turn; on a topic it opens or closes the branch.
      const link = li.querySelector<HTMLAnchorElement>(':scope > div a');
      e.preventDefault();
      if (link && e.key === 'Enter') link.click();
      else if (all.includes(key)) {
        const next = new Set(expanded);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        setExpanded(next);
      }
      return;
    }
    const result = navigate(items, expanded, key, e.key);
    if (!result) return;
    e.preventDefault();
    moved.current = true;
    setExpanded(result.expanded);
    setFocus(result.focus);
  };

  const H = `h${headingLevel}` as const;
  const kindLabel = (n: TreeNode) => {
    if (n.level === 1) return n.kind === 'topic' ? t('kind_topic') : t('kind_claim');
    if (n.kind === 'question') return t('kind_question');
    if (n.kind === 'response') return t('kind_response');
    return n.level === 2 ? t('kind_rebuttal') : t('kind_reply');
  };

  const renderItem = (item: Item, level: number, index: number, siblings: number) => {
    const open = expanded.has(item.key);
    const labelId = `${id}-${item.key.replace(/[^\w-]/g, '_')}`;
    return (
      <li
        key={item.key}
        ref={(el) => {
          if (el) refs.current.set(item.key, el);
          else refs.current.delete(item.key);
        }}
        role="treeitem"
        aria-level={level}
        aria-setsize={siblings}
        aria-posinset={index + 1}
        aria-expanded={item.children.length ? open : undefined}
        aria-selected={item.key === tabStop}
        aria-labelledby={labelId}
        tabIndex={item.key === tabStop ? 0 : -1}
        data-key={item.key}
        data-testid="tree-item"
        onFocus={(e) => {
          if (e.target === e.currentTarget) setFocus(item.key);
        }}
        className="rounded outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:focus-visible:ring-blue-400"
      >
        <div
          className="flex items-start gap-2 py-1"
          onClick={(e) => {
            if ((e.target as HTMLElement).closest('a') || !item.children.length) return;
            setExpanded(open ? new Set([...expanded].filter((k) => k !== item.key)) : new Set([...expanded, item.key]));
            setFocus(item.key);
          }}
        >
          <span aria-hidden="true" className="mt-0.5 inline-block w-4 shrink-0 text-center text-zinc-600 dark:text-zinc-400">
            {item.children.length ? (open ? '▾' : '▸') : ''}
          </span>
          {item.node ? (
            <span className="min-w-0 flex-1 text-sm">
              <span id={labelId}>
                <span className="font-medium">
                  <span aria-hidden="true">{TEAM_MARK[item.node.team]} </span>
                  {kindLabel(item.node)} · {t(`team_${item.node.team}`)} · {item.node.id}
                </span>
                <span className="text-zinc-700 dark:text-zinc-300"> — {item.node.text}</span>
              </span>{' '}
              <a className={`${LINK} whitespace-nowrap text-xs`} href={`${runHref}#turn-${item.node.stepId}`} tabIndex={-1}>
                {t('openTurn', { step: item.node.stepId })}
              </a>
            </span>
          ) : (
            <span id={labelId} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
              {item.label} <Badge tone="blue">{t('depthN', { n: item.depth ?? 0 })}</Badge>
            </span>
          )}
        </div>
        {item.children.length && open ? (
          <ul role="group" className="ml-4 border-l border-zinc-300 pl-2 dark:border-zinc-700">
            {item.children.map((c, i) => renderItem(c, level + 1, i, item.children.length))}
          </ul>
        ) : null}
      </li>
    );
  };

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-4" data-testid="reasoning-tree">
      <div>
        <H id={`${id}-h`} className="text-lg font-semibold">
          {t('heading')}
        </H>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('intro')}</p>
      </div>
      <dl className="grid grid-cols-3 gap-3 text-center" data-testid="tree-metrics">
        {[
          [t('breadth'), tree.breadth, t('breadthHint'), 'tree-breadth'],
          [t('maxDepth'), tree.depths.length ? Math.max(...tree.depths) : 0, `${t('depths')}: ${tree.depths.join(' + ') || '—'}`, 'tree-depth'],
          [t('rei'), tree.rei, t('reiHint'), 'tree-rei'],
        ].map(([label, value, hint, testid]) => (
          <div key={testid} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
            <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid={testid}>
              {value}
            </dd>
            <dd className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</dd>
          </div>
        ))}
      </dl>
      {tree.root ? (
        <blockquote
          className="rounded-md border-l-4 border-zinc-400 bg-zinc-50 px-3 py-2 text-sm dark:border-zinc-500 dark:bg-zinc-900"
          data-testid="tree-root"
        >
          <p className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">
            {t('root', { step: tree.root.stepId })}{' '}
            <a className={LINK} href={`${runHref}#turn-${tree.root.stepId}`}>
              {t('openTurn', { step: tree.root.stepId })}
            </a>
          </p>
          <p className="mt-1">{tree.root.text || t('noRoot')}</p>
        </blockquote>
      ) : null}
      {items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('empty')}</p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Button variant="secondary" size="sm" onClick={() => setCollapsed(new Set())}>
              {t('expandAll')}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setCollapsed(new Set(all))}>
              {t('collapseAll')}
            </Button>
            <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
              {t('keyboardHint')}
            </p>
          </div>
          <ul role="tree" aria-label={t('treeLabel', { n: tree.breadth })} aria-describedby={`${id}-hint`} onKeyDown={onKeyDown} className="space-y-1">
            {items.map((item, i) => renderItem(item, 1, i, items.length))}
          </ul>
        </>
      )}
      {tree.unlinked.length ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('unlinked', { n: tree.unlinked.length })}</p> : null}
    </section>
  );
}
