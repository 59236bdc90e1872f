// Step ids in report prose, in words (docs/protocols.md, "The report's bottom line"). A model, and
// the offline analyst, refer to turns and their claims by the ids they were shown ("D2 questioned
// it", "D8-q3", "(DRAFT-c1, SKEPTIC-c1)"); a committee member reading the report cold cannot decode
// them. Every id of the run's protocol, alone or with a claim or question number, is written as
// what the turn is: "the negative rebuttal", "question 3 of the negative rebuttal". Pure, linear.
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import type { Locale } from '@/lib/i18n';
import { actLabel, agentLabel } from '@/lib/i18n/messages/debate-terms';
import type { Block } from '@/lib/report/doc';
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
const PARTICLES: Record<string, [string, string]> = { 이: ['이', '가'], 가: ['이', '가'], 은: ['은', '는'], 는: ['은', '는'], 을: ['을', '를'], 를: ['을', '를'], 과: ['과', '와'], 와: ['과', '와'] };

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
 * A function that rewrites the protocol's step ids in a text. An id of one letter ("C", SAS's
 * challenge) is rewritten only with a claim or question number, where it cannot be an ordinary
 * letter. Ids are matched whole: not inside a longer word or id.
 */
export function plainTurnNames(protocol: ProtocolDef, locale: Locale): (text: string) => string {
  const names = turnNames(protocol, locale);
  const ids = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  if (ids.length === 0) return (text) => text;
  // One alternation of literal ids, then an optional "-c3"/"-q2", then a Korean particle written
  // onto the id ("D2가"), which must agree with the name that replaces it: no nested quantifiers.
  // Ids are ASCII, so only ASCII letters, digits and dashes around one make it part of a longer token.
  const pattern = new RegExp(`(?<![A-Za-z0-9_-])(${ids.join('|')})(?:-([cq])(\\d{1,3}))?(?![A-Za-z0-9_-])(이|가|은|는|을|를|과|와)?`, 'g');
  return (text) =>
    text.replace(pattern, (whole, id: string, kind: string | undefined, n: string | undefined, particle: string | undefined) => {
      const name = names.get(id);
      if (!name || (id.length === 1 && !kind)) return whole;
      const named = !kind ? name : locale === 'ko' ? `${name}의 ${kind === 'q' ? '질문' : '주장'} ${n}` : `${kind === 'q' ? 'question' : 'claim'} ${n} of ${name}`;
      return named + (particle ? agreeingParticle(named, particle) : '');
    });
}

/** The same rewrite over every text of a report's sections (not their citations, which are data). */
export function plainSections<S extends { blocks: B[] }, B extends Block>(sections: S[], plain: (text: string) => string): S[] {
  const walk = (b: Block): Block => {
    switch (b.kind) {
      case 'paragraph':
      case 'note':
        return { ...b, text: plain(b.text) };
      case 'list':
        return { ...b, items: b.items.map(plain) };
      case 'fields':
        return { ...b, items: b.items.map((f) => ({ ...f, value: plain(f.value) })) };
      case 'table':
        return { ...b, rows: b.rows.map((r) => r.map(plain)) };
      case 'group':
        return { ...b, title: plain(b.title), blocks: b.blocks.map(walk) };
      default:
        return b;
    }
  };
  return sections.map((s) => ({ ...s, blocks: s.blocks.map(walk) }));
}
