// No regular expression in the application's source repeats a group that itself repeats, or
// repeats a choice whose branches can start with the same character: `(a+)+`, `(\s*x\s*)*`,
// `(a|a)*`. JavaScript's regular expressions backtrack, and such a pattern tries every way of
// dividing a run of text among its repetitions: `/(\s*\|\s*)+$/` took a minute over 120 bytes of an
// uploaded filing. Text from outside reaches most of the code — uploaded documents and imports
// (lib/pool), model answers (lib/debate, lib/llm), connector and web responses, request
// parameters and form fields (app, components, lib/db/queries), log lines (lib/ops) — and a
// pattern written for our own text today is reused on theirs tomorrow, so the scan covers all of
// the source the application and its scripts run, not a list of files that would go stale.
// Left out: test files, which read only their own fixtures, and the root's dotfile configurations
// of development tools, which read only our own source.
//
// The check is syntactic and deliberately strict: a repeated group whose repetition is unambiguous
// (each turn starts with a character the last could not end with) is refused too, because telling
// the two apart is what went wrong before. Rewrite it: a loop over the text, a split, a lookahead.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** One element of a pattern: an atom or a group, and whether it is repeated (`*`, `+`, `{n,}`, `{n,m}` with m > 1). */
type Element = { text: string; repeated: boolean; branches?: Element[][] };

/** The pattern's elements, branch by branch: enough of the syntax to see groups, classes, escapes and quantifiers. */
function parsePattern(source: string): Element[][] {
  let at = 0;
  const branches = (): Element[][] => {
    const out: Element[][] = [[]];
    while (at < source.length && source[at] !== ')') {
      if (source[at] === '|') {
        at++;
        out.push([]);
        continue;
      }
      const start = at;
      let inner: Element[][] | undefined;
      if (source[at] === '(') {
        at++;
        if (source[at] === '?') {
          // (?: (?= (?! (?<= (?<! or a named group (?<name>
          if (source[at + 1] === '<' && source[at + 2] !== '=' && source[at + 2] !== '!') at = source.indexOf('>', at) + 1;
          else at += source[at + 1] === '<' ? 3 : 2;
        }
        inner = branches();
        at++;
      } else if (source[at] === '[') {
        at++;
        while (at < source.length && source[at] !== ']') at += source[at] === '\\' ? 2 : 1;
        at++;
      } else if (source[at] === '\\') {
        at += 2;
        if ('pPuk'.includes(source[at - 1]) && (source[at] === '{' || source[at] === '<')) at = source.indexOf(source[at] === '{' ? '}' : '>', at) + 1;
      } else {
        at++;
      }
      const text = source.slice(start, at);
      const quantifier = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(at));
      let repeated = false;
      if (quantifier) {
        const [whole, symbol, , comma, max] = quantifier;
        repeated = symbol === '*' || symbol === '+' || (comma !== undefined && (max === '' || Number(max) > 1));
        at += whole.length;
      }
      out[out.length - 1].push({ text, repeated, branches: inner });
    }
    return out;
  };
  return branches();
}

const holdsRepeat = (branches: Element[][]): boolean =>
  branches.some((b) => b.some((e) => e.repeated || (e.branches !== undefined && holdsRepeat(e.branches))));

// Characters tried on the first element of each branch: a branch pair that both accept one can start alike.
const SAMPLES = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), '\u00a0', '\u2028', '\u3000', 'é', '가', '年', '😀'];
function sharedStart(branches: Element[][]): string | null {
  if (branches.some((b) => b.length === 0)) return 'an empty branch';
  const firsts = branches.map((b) => {
    try {
      return new RegExp(`^(?:${b[0].text})`, 'u');
    } catch {
      // An escape only older syntax allows (`\-` outside a class): read as the pattern itself was.
      return new RegExp(`^(?:${b[0].text})`);
    }
  });
  const shared = SAMPLES.find((c) => firsts.filter((f) => f.test(c)).length > 1);
  return shared === undefined ? null : JSON.stringify(shared);
}

/** Why the pattern can backtrack without bound, or null. */
export function nestedQuantifier(source: string): string | null {
  const problems: string[] = [];
  const visit = (branches: Element[][]) => {
    for (const e of branches.flat()) {
      if (!e.branches) continue;
      if (e.repeated && holdsRepeat(e.branches)) problems.push(`the repeated group ${e.text} repeats inside`);
      else if (e.repeated && e.branches.length > 1) {
        const shared = sharedStart(e.branches);
        if (shared) problems.push(`the repeated group ${e.text} has branches that can start alike (${shared})`);
      }
      visit(e.branches);
    }
  };
  visit(parsePattern(source));
  return problems.length ? problems.join('; ') : null;
}

/** The patterns a source file writes: regular expression literals, and RegExp(...) of a string or template (a substitution read as one atom). */
function patternsIn(file: string): { line: number; source: string }[] {
  const sf = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const out: { line: number; source: string }[] = [];
  const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const walk = (n: ts.Node) => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = n.getText(sf);
      out.push({ line: line(n), source: literal.slice(1, literal.lastIndexOf('/')) });
    } else if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp' && n.arguments?.length) {
      const [arg] = n.arguments;
      if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) out.push({ line: line(n), source: arg.text });
      else if (ts.isTemplateExpression(arg))
        out.push({ line: line(n), source: arg.head.text + arg.templateSpans.map((s) => `(?:x)${s.literal.text}`).join('') });
    }
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return out;
}

const SOURCE_DIRS = ['lib', 'app', 'components', 'scripts'];
const isSource = (name: string) => /\.(ts|tsx|mts|js|mjs|cjs)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts');
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(p);
    return isSource(entry.name) ? [p] : [];
  });
}

describe('nested quantifiers', () => {
  it('are recognised in the forms that backtrack, and ordinary repeats are not', () => {
    expect(nestedQuantifier('(a+)+')).toBe('the repeated group (a+) repeats inside');
    expect(nestedQuantifier('^(\\s*x\\s*)*$')).toBe('the repeated group (\\s*x\\s*) repeats inside');
    expect(nestedQuantifier('(\\s*\\|\\s*)+$')).toBe('the repeated group (\\s*\\|\\s*) repeats inside');
    expect(nestedQuantifier('(?:a|a)*')).toBe('the repeated group (?:a|a) has branches that can start alike ("a")');
    expect(nestedQuantifier('(?:\\w|\\d){2,}')).toBe('the repeated group (?:\\w|\\d) has branches that can start alike ("0")');
    expect(nestedQuantifier('(?:x(?:ab+)?)+')).toBe('the repeated group (?:x(?:ab+)?) repeats inside');
    expect(nestedQuantifier('(?<name>[a-z]{1,3}\\.)+')).toBe('the repeated group (?<name>[a-z]{1,3}\\.) repeats inside');
    for (const fine of ['\\s+', '[a-z(]+\\)', '(?:ab)+', '(a|b)*', '(?:\\r?\\n)+', '(?:[a-z]{3})+', '(?=a+)b', '(?:\\s|&nbsp;)+', '\\p{L}+', 'x{2,3}'])
      expect([fine, nestedQuantifier(fine)]).toEqual([fine, null]);
  });

  it('appear nowhere in the source the application and its scripts run', () => {
    // The root's own files too (proxy.ts, instrumentation.ts, next.config.mjs), but not the tools'
    // dotfile configurations, which read only our own source.
    const files = [...SOURCE_DIRS.flatMap((d) => sourceFiles(d)), ...fs.readdirSync('.').filter((name) => isSource(name) && !name.startsWith('.'))];
    // The scan reaches the code that reads uploads, imports and model answers.
    expect(files).toEqual(
      expect.arrayContaining([
        'lib/pool/documents/extract.ts',
        'lib/pool/import/parse.ts',
        'lib/debate/intake.ts',
        'lib/ops/log.ts',
        'proxy.ts',
        'scripts/start.mjs',
      ]),
    );
    const patterns = files.flatMap((file) => patternsIn(file).map((p) => ({ ...p, file })));
    expect(patterns.length).toBeGreaterThan(300);
    const found = patterns.flatMap(({ file, line, source }) => {
      const why = nestedQuantifier(source);
      return why ? [`${file}:${line} /${source}/: ${why}`] : [];
    });
    expect(found).toEqual([]);
  });
});
