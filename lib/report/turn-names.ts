// Step ids in report prose, in words (docs/protocols.md, "The report's bottom line"). A model, and
// the offline analyst, refer to turns and their claims by the ids they were shown ("D2 questioned
// it", "D8-q3", "(DRAFT-c1, SKEPTIC-c1)"); a committee member reading the report cold cannot decode
// them. Every id of the run's protocol, alone or with a claim or question number, is written as
// what the turn is: "the negative rebuttal", "question 3 of the negative rebuttal". Pure, linear.
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import type { Locale } from '@/lib/i18n';
import { actLabel, agentLabel } from '@/lib/i18n/messages/debate-terms';
import type { Block, Segment } from '@/lib/report/doc';
import { escapeRegExp } from '@/lib/util/regexp';

const SIDE = { en: { affirmative: 'affirmative', negative: 'negative' }, ko: { affirmative: '찬성 측', negative: '반대 측' } } as const;

const ORDINAL = { en: ['first', 'second', 'third', 'fourth'], ko: ['첫 번째', '두 번째', '세 번째', '네 번째'] } as const;

/**
 * What a step is, in words: the side and its act for a debater, the speaker and act otherwise;
 * `nth` (0-based) when the side makes that act more than once (KPD-MADS's two cross-examinations a side).
 */
export function turnName(step: Pick<StepDef, 'agent' | 'team' | 'act'>, locale: Locale, nth?: number): string {
  const act = actLabel(step.act, locale);
  const who = step.team === 'affirmative' || step.team === 'negative' ? SIDE[locale][step.team] : agentLabel(step.agent, locale);
  const ordinal = nth === undefined ? '' : `${ORDINAL[locale][nth] ?? String(nth + 1)} `;
  return locale === 'ko' ? `${who} ${ordinal}${act}` : `the ${ordinal}${who} ${act}`;
}

/** Each step's name in the protocol, numbered where a side makes the same act twice. */
export function turnNames(protocol: ProtocolDef, locale: Locale): Map<string, string> {
  const key = (s: StepDef) => `${s.team === 'neutral' ? s.agent : s.team}/${s.act}`;
  const total = new Map<string, number>();
  for (const s of protocol.steps) total.set(key(s), (total.get(key(s)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return new Map(
    protocol.steps.map((s) => {
      const n = seen.get(key(s)) ?? 0;
      seen.set(key(s), n + 1);
      return [s.id, turnName(s, locale, total.get(key(s))! > 1 ? n : undefined)];
    }),
  );
}

// Korean particles come in pairs by whether the word before ends in a consonant (받침).
const PARTICLES: Record<string, [string, string]> = {
  이: ['이', '가'],
  가: ['이', '가'],
  은: ['은', '는'],
  는: ['은', '는'],
  을: ['을', '를'],
  를: ['을', '를'],
  과: ['과', '와'],
  와: ['과', '와'],
};

/** The particle's form that agrees with the word's last sound (a digit is read as its Korean name). */
function agreeingParticle(word: string, particle: string): string {
  const pair = PARTICLES[particle];
  const last = word.at(-1) ?? '';
  const code = last.charCodeAt(0);
  // Digits 0, 1, 3, 6, 7, 8 end in a consonant when read in Korean (영, 일, 삼, 육, 칠, 팔).
  const closed = code >= 0xac00 && code <= 0xd7a3 ? (code - 0xac00) % 28 !== 0 : /[013678]/.test(last);
  return pair ? pair[closed ? 0 : 1] : particle;
}

/**
 * The anchors the run's transcript has (components/run/transcript.tsx): a card per turn
 * (`turn-D7`), per claim (`claim-D1-c2`) and per question (`question-D2-q3`). A name links only to
 * an anchor the transcript draws, so a claim a model numbered wrongly links to its turn instead.
 */
export type TranscriptAnchors = { steps: ReadonlySet<string>; claims: ReadonlySet<string>; questions: ReadonlySet<string> };

/** The anchors of a run's turns: every turn has a card; its claims and questions, once it finished. */
export function transcriptAnchors(turns: { step: string; status: string; claims?: { id: string }[]; questions?: { id: string }[] }[]): TranscriptAnchors {
  const done = turns.filter((t) => t.status === 'done');
  return {
    steps: new Set(turns.map((t) => t.step)),
    claims: new Set(done.flatMap((t) => (t.claims ?? []).map((c) => c.id))),
    questions: new Set(done.flatMap((t) => (t.questions ?? []).map((q) => q.id))),
  };
}

/** The pieces' text, joined. */
export const joinSegments = (parts: Segment[]): string => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');

/**
 * A function that splits a text into pieces: plain text, and each of the protocol's step ids
 * written as the turn it names, in words. With `anchors`, a name is a link to its turn's card in
 * the transcript (to the claim or question it numbers, when the transcript has that one); without,
 * every piece is text. An id of one letter ("C", SAS's challenge) is rewritten only with a claim
 * or question number, where it cannot be an ordinary letter. Ids are matched whole: not inside a
 * longer word or id.
 */
export function turnSegments(protocol: ProtocolDef, locale: Locale, anchors?: TranscriptAnchors): (text: string) => Segment[] {
  const names = turnNames(protocol, locale);
  const ids = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  if (ids.length === 0) return (text) => [text];
  // One alternation of literal ids, then an optional "-c3"/"-q2", then a Korean particle written
  // onto the id ("D2가"), which must agree with the name that replaces it: no nested quantifiers.
  // Ids are ASCII, so only ASCII letters, digits and dashes around one make it part of a longer token.
  const pattern = new RegExp(`(?<![A-Za-z0-9_-])(${ids.join('|')})(?:-([cq])(\\d{1,3}))?(?![A-Za-z0-9_-])(이|가|은|는|을|를|과|와)?`, 'g');
  const anchorOf = (id: string, kind: string | undefined, n: string | undefined): string | null => {
    if (!anchors) return null;
    const part = kind ? `${id}-${kind}${n}` : null;
    if (part && kind === 'c' && anchors.claims.has(part)) return `claim-${part}`;
    if (part && kind === 'q' && anchors.questions.has(part)) return `question-${part}`;
    return anchors.steps.has(id) ? `turn-${id}` : null;
  };
  return (text) => {
    const parts: Segment[] = [];
    let plain = '';
    let last = 0;
    for (const m of text.matchAll(pattern)) {
      const [whole, id, kind, n, particle] = m;
      const name = names.get(id);
      if (!name || (id.length === 1 && !kind)) continue;
      const phrase = !kind
        ? name
        : locale === 'ko'
          ? `${name}의 ${kind === 'q' ? '질문' : '주장'} ${n}`
          : `${kind === 'q' ? 'question' : 'claim'} ${n} of ${name}`;
      // An English name that opens a sentence opens with a capital ("The negative rebuttal questioned …").
      // So does one that opens a line or a numbered point ("(1) The affirmative constructive reads …").
      const opens = locale === 'en' && /(?:^|[.!?]\s+|\n|\(\d{1,3}\)\s+)$/.test(text.slice(0, m.index));
      const named = opens ? phrase.charAt(0).toUpperCase() + phrase.slice(1) : phrase;
      const after = particle ? agreeingParticle(named, particle) : '';
      plain += text.slice(last, m.index);
      last = m.index + whole.length;
      const anchor = anchorOf(id, kind, n);
      if (!anchor) {
        plain += named + after;
        continue;
      }
      if (plain) parts.push(plain);
      parts.push({ text: named, to: 'turn', anchor });
      plain = after;
    }
    plain += text.slice(last);
    if (plain || parts.length === 0) parts.push(plain);
    return parts;
  };
}

/** The same rewrite as plain text: every step id of the protocol in words. */
export function plainTurnNames(protocol: ProtocolDef, locale: Locale): (text: string) => string {
  const split = turnSegments(protocol, locale);
  return (text) => joinSegments(split(text));
}

/**
 * The same rewrite over every text of a report's sections (not their citations, which are data).
 * A text that already has pieces (a summary's pointer to its topic, lib/report/summaries.ts) keeps
 * its links; its plain pieces are split in turn. `parts` is set only where some piece is a link.
 */
export function plainSections<S extends { blocks: B[] }, B extends Block>(sections: S[], split: (text: string) => Segment[]): S[] {
  const rich = (text: string, parts?: Segment[] | null) => {
    const out = (parts ?? [text]).flatMap((p) => (typeof p === 'string' ? split(p) : [{ ...p, text: joinSegments(split(p.text)) }]));
    return { text: joinSegments(out), parts: out.some((p) => typeof p !== 'string') ? out : undefined };
  };
  const walk = (b: Block): Block => {
    switch (b.kind) {
      case 'paragraph':
      case 'note': {
        const { parts, ...rest } = b;
        const r = rich(b.text, parts);
        return { ...rest, text: r.text, ...(r.parts ? { parts: r.parts } : {}) };
      }
      case 'list': {
        const { parts, ...rest } = b;
        const rs = b.items.map((item, i) => rich(item, parts?.[i]));
        return { ...rest, items: rs.map((r) => r.text), ...(rs.some((r) => r.parts) ? { parts: rs.map((r) => r.parts ?? null) } : {}) };
      }
      case 'fields':
        return {
          ...b,
          items: b.items.map(({ parts, ...f }) => {
            const r = rich(f.value, parts);
            return { ...f, value: r.text, ...(r.parts ? { parts: r.parts } : {}) };
          }),
        };
      case 'table':
        return { ...b, rows: b.rows.map((r) => r.map((cell) => joinSegments(split(cell)))) };
      case 'group':
        return { ...b, title: joinSegments(split(b.title)), blocks: b.blocks.map(walk) };
      default:
        return b;
    }
  };
  return sections.map((s) => ({ ...s, blocks: s.blocks.map(walk) }));
}
