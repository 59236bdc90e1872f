// A plain reader for a pool document's Markdown body: headings and paragraphs as text nodes (never
// HTML), tables and lists kept as preformatted text so their columns line up. Each block keeps its
// offsets into the body, so a passage (a citation's, a candidate's) is highlighted where it is and
// the first highlighted block carries id="passage" for the address's #passage to scroll to.
type Kind = 'heading' | 'paragraph' | 'pre';
type Block = { kind: Kind; level: number; start: number; end: number };
export type Highlight = { start: number; end: number } | null;

function toBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  const push = (from: number, to: number) => {
    while (from < to && /\s/.test(body[from])) from++;
    while (to > from && /\s/.test(body[to - 1])) to--;
    if (from >= to) return;
    const chunk = body.slice(from, to);
    const heading = /^(#{1,6})\s+(.*)$/.exec(chunk);
    if (heading && !chunk.includes('\n')) blocks.push({ kind: 'heading', level: heading[1].length, start: to - heading[2].length, end: to });
    else blocks.push({ kind: /^\s*(\||[-*]\s|\d+\.\s)/m.test(chunk) ? 'pre' : 'paragraph', level: 0, start: from, end: to });
  };
  let from = 0;
  for (const gap of body.matchAll(/\n\s*\n/g)) {
    push(from, gap.index);
    from = gap.index + gap[0].length;
  }
  push(from, body.length);
  return blocks;
}

function Text({ body, block, highlight, first }: { body: string; block: Block; highlight: Highlight; first: boolean }) {
  if (!highlight || highlight.end <= block.start || highlight.start >= block.end) return <>{body.slice(block.start, block.end)}</>;
  const from = Math.max(block.start, highlight.start);
  const to = Math.min(block.end, highlight.end);
  return (
    <>
      {body.slice(block.start, from)}
      <mark id={first ? 'passage' : undefined} className="rounded bg-amber-200 px-0.5 text-inherit dark:bg-amber-700/60" data-testid="passage">
        {body.slice(from, to)}
      </mark>
      {body.slice(to, block.end)}
    </>
  );
}

export function DocumentReader({ body, highlight = null }: { body: string; highlight?: Highlight }) {
  const blocks = toBlocks(body);
  const firstHit = highlight ? blocks.findIndex((b) => highlight.end > b.start && highlight.start < b.end) : -1;
  return (
    <article className="max-w-3xl space-y-4 leading-relaxed" data-testid="document-body">
      {blocks.map((b, i) => {
        const text = <Text body={body} block={b} highlight={highlight} first={i === firstHit} />;
        if (b.kind === 'heading') {
          return b.level <= 2 ? (
            <h2 key={i} className="pt-2 text-lg font-semibold">
              {text}
            </h2>
          ) : (
            <h3 key={i} className="pt-1 font-semibold">
              {text}
            </h3>
          );
        }
        if (b.kind === 'pre') {
          return (
            <pre key={i} className="overflow-x-auto whitespace-pre-wrap rounded bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-900">
              {text}
            </pre>
          );
        }
        return <p key={i}>{text}</p>;
      })}
    </article>
  );
}
