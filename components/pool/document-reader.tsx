// A plain reader for imported Markdown: headings and paragraphs as text nodes (never HTML),
// tables and lists kept as preformatted text so their columns line up.
type Block = { kind: 'heading'; level: number; text: string } | { kind: 'paragraph' | 'pre'; text: string };

function toBlocks(body: string): Block[] {
  return body
    .split(/\n\s*\n/)
    .map((chunk) => chunk.replace(/^\n+|\s+$/g, ''))
    .filter(Boolean)
    .map((chunk): Block => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(chunk);
      if (heading && !chunk.includes('\n')) return { kind: 'heading', level: heading[1].length, text: heading[2] };
      if (/^\s*(\||[-*]\s|\d+\.\s)/m.test(chunk)) return { kind: 'pre', text: chunk };
      return { kind: 'paragraph', text: chunk.replace(/\s*\n\s*/g, ' ') };
    });
}

export function DocumentReader({ body }: { body: string }) {
  return (
    <article className="max-w-3xl space-y-4 leading-relaxed" data-testid="document-body">
      {toBlocks(body).map((b, i) => {
        if (b.kind === 'heading') {
          return b.level <= 2 ? (
            <h2 key={i} className="pt-2 text-lg font-semibold">
              {b.text}
            </h2>
          ) : (
            <h3 key={i} className="pt-1 font-semibold">
              {b.text}
            </h3>
          );
        }
        if (b.kind === 'pre') {
          return (
            <pre key={i} className="overflow-x-auto whitespace-pre-wrap rounded bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-900">
              {b.text}
            </pre>
          );
        }
        return <p key={i}>{b.text}</p>;
      })}
    </article>
  );
}
