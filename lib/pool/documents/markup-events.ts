// The events of HTML or XML markup — an element opens, closes, text — for extract.ts, from
// htmlparser2's tokenizer and our own record of the open elements. htmlparser2's Parser keeps that
// record by shifting an array at its front, one step per element already open, so a file of a
// million unclosed `<b>` cost a million squared steps (half a minute for 1.4 MB). Here the record is
// a stack pushed and popped at its end, no deeper than MAX_OPEN (browsers cap their trees' depth
// too), with a count of each name on it so an end tag that closes nothing is ignored at once:
// every event costs at most a bounded number of steps, and a file costs steps in proportion to its
// length. The tokenizer reads script and style as raw text and decodes entities (in XML only the
// five XML ones and numeric references); nothing in the markup is run or fetched.
import { Tokenizer } from 'htmlparser2';

export type MarkupHandler = {
  onopentag(name: string): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
};

/** Open elements recorded; one opened deeper is read (its text kept) but never waits for its end tag. */
export const MAX_OPEN = 512;

// HTML elements that never have content: no end tag is waited for.
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

// The HTML elements whose start ends an open one without its end tag, as the HTML parsing rules
// have it: a <body> ends the <head>, a paragraph, list item, row or cell ends the one before it.
const P = ['p'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const ENDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['body', ['head', 'link', 'script']],
      ['p', P],
      ['li', ['li']],
      ['dd', ['dd', 'dt']],
      ['dt', ['dd', 'dt']],
      ['tr', ['tr', 'td', 'th']],
      ['td', ['td', 'th', 'thead']],
      ['th', ['td', 'th']],
      ['tbody', ['thead', 'tbody']],
      ['tfoot', ['thead', 'tbody']],
      ['option', ['option']],
      ['optgroup', ['option', 'optgroup']],
      ...HEADINGS.map((h) => [h, [...HEADINGS, ...P]]),
      ...[
        'address',
        'article',
        'aside',
        'blockquote',
        'details',
        'div',
        'dl',
        'fieldset',
        'figcaption',
        'figure',
        'footer',
        'form',
        'header',
        'hr',
        'main',
        'nav',
        'ol',
        'pre',
        'section',
        'table',
        'ul',
      ].map((b) => [b, P]),
    ] as [string, string[]][]
  ).map(([name, ends]) => [name, new Set(ends)]),
);

// In HTML, SVG and MathML are foreign content: there `<x/>` closes itself, as it does everywhere in XML.
const FOREIGN = ['svg', 'math'];

/** Walks `markup` once, calling the handler for each element's start and end and each run of text. */
export function walkMarkup(markup: string, { xmlMode }: { xmlMode: boolean }, handler: MarkupHandler): void {
  const html = !xmlMode;
  const open: string[] = [];
  const onStack = new Map<string, number>();
  let name = '';

  const count = (n: string) => onStack.get(n) ?? 0;
  const foreign = () => xmlMode || FOREIGN.some((f) => count(f) > 0);
  const pop = () => {
    const top = open.pop()!;
    onStack.set(top, count(top) - 1);
    handler.onclosetag(top);
    return top;
  };
  /** Whether the element was recorded as open. */
  const start = (tag: string) => {
    const ends = html ? ENDS.get(tag) : undefined;
    if (ends) while (open.length && ends.has(open[open.length - 1])) pop();
    handler.onopentag(tag);
    if (html && VOID.has(tag)) {
      handler.onclosetag(tag);
      return false;
    }
    if (open.length >= MAX_OPEN) return false;
    open.push(tag);
    onStack.set(tag, count(tag) + 1);
    return true;
  };
  const end = (tag: string) => {
    if (html && VOID.has(tag)) {
      // `</br>` is a line break in HTML; any other void element's end tag means nothing.
      if (tag === 'br') start(tag);
      return;
    }
    if (count(tag) > 0) {
      while (pop() !== tag);
    } else if (html && tag === 'p') {
      // `</p>` with no paragraph open is an empty paragraph.
      handler.onopentag('p');
      handler.onclosetag('p');
    }
  };

  const tokenizer = new Tokenizer(
    { xmlMode, decodeEntities: true },
    {
      ontext: (from, to) => handler.ontext(markup.slice(from, to)),
      ontextentity: (codepoint) => handler.ontext(String.fromCodePoint(codepoint)),
      // CDATA is text in XML; in HTML it is only allowed in foreign content, which is never read.
      oncdata: (from, to, offset) => {
        if (xmlMode) handler.ontext(markup.slice(from, to - offset));
      },
      onopentagname: (from, to) => {
        name = markup.slice(from, to).toLowerCase();
      },
      onopentagend: () => start(name),
      onselfclosingtag: () => {
        if (start(name) && foreign()) pop();
      },
      onclosetag: (from, to) => end(markup.slice(from, to).toLowerCase()),
      isInForeignContext: () => html && FOREIGN.some((f) => count(f) > 0),
      onattribdata: () => {},
      onattribentity: () => {},
      onattribend: () => {},
      onattribname: () => {},
      oncomment: () => {},
      ondeclaration: () => {},
      onprocessinginstruction: () => {},
      onend: () => {
        while (open.length) pop();
      },
    },
  );
  tokenizer.write(markup);
  tokenizer.end();
}
