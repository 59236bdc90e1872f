// Prose mechanics: fitting a turn into its length limit without cutting a citation in half,
// splitting an answer into the word-sized pieces it is streamed in, and Korean particles.
import type { Language } from '@/lib/domain/protocol';
import { sentenceEnds } from '@/lib/util/sentences';

/** A sentence or line of a turn; lower priority is dropped first when the turn is too long. */
export type Segment = { text: string; priority: number; join?: 'space' | 'line' };

/**
 * Joins segments in order and, while the result exceeds `maxChars`, drops the lowest-priority
 * segment (the last of equals first). If the essentials alone are too long, the text is cut at
 * the last sentence end that fits, and marked with an ellipsis.
 */
export function fit(segments: Segment[], maxChars?: number): string {
  const kept = segments.filter((s) => s.text.trim() !== '');
  const render = (list: Segment[]) =>
    list
      .map((s, i) => (i === 0 ? s.text : `${s.join === 'line' ? '\n' : ' '}${s.text}`))
      .join('')
      .trim();
  if (maxChars === undefined) return render(kept);
  let list = kept;
  while (render(list).length > maxChars && list.length > 1) {
    let drop = list.length - 1;
    for (let i = list.length - 1; i >= 0; i--) if (list[i].priority < list[drop].priority) drop = i;
    if (list[drop].priority >= 10) break; // essentials are never dropped, only cut
    list = list.filter((_, i) => i !== drop);
  }
  return clip(render(list), maxChars);
}

/**
 * At most `maxChars`, ended at the last sentence end (or line) that fits, else at the last clause
 * boundary, else at the last word: never cut off with an ellipsis.
 */
export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = text.slice(0, maxChars);
  const last = (re: RegExp) => {
    let end = -1;
    for (const m of room.matchAll(re)) end = m.index! + m[0].length;
    return end;
  };
  // Sentence ends read on the whole text, so "the U.S." just before the limit is not taken for one.
  const sentence = sentenceEnds(text).reduce((best, e) => (e <= maxChars && e > best ? e : best), last(/\n/g));
  if (sentence > 0) return room.slice(0, sentence).trimEnd();
  const clause = last(/[,;:](?=\s)/g);
  const cut = clause > maxChars / 3 ? room.slice(0, clause - 1) : room.slice(0, maxChars - 1).replace(/\s+\S*$/, '');
  return `${cut.trimEnd()}.`;
}

/** Word pieces with their trailing whitespace: concatenated, they give back the text exactly. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Fixed-size pieces for raw JSON, which has no whitespace to split on. */
export function chunks(text: string, size = 24): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * A JSON answer in pieces about the size of a model's tokens: words, and the runs of JSON between
 * them in pieces of at most `size` characters. Concatenated, they give back the answer exactly.
 */
export function answerPieces(raw: string, size = 16): string[] {
  return pieces(raw).flatMap((p) => (p.length > size ? chunks(p, size) : [p]));
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

// Final consonant of the last spoken syllable decides 은/는, 이/가, 을/를, 과/와, (으)로.
const DIGIT_HAS_FINAL = [true, true, false, true, false, false, true, true, true, false];

function hasFinal(word: string): boolean {
  const t = word.replace(/[\s"'“”‘’」』)\]…]+$/u, '');
  const last = t.charCodeAt(t.length - 1);
  if (last >= 0xac00 && last <= 0xd7a3) return (last - 0xac00) % 28 !== 0;
  const ch = t[t.length - 1] ?? '';
  if (/\d/.test(ch)) return DIGIT_HAS_FINAL[Number(ch)];
  return /[lmnrkptbdgc]$/i.test(ch);
}

const PAIRS: Record<string, [string, string]> = {
  은: ['은', '는'],
  이: ['이', '가'],
  을: ['을', '를'],
  과: ['과', '와'],
  으로: ['으로', '로'],
  이다: ['이다', '다'],
};

/** `word` followed by the right form of a particle: josa('경영 연속성', '은') → '경영 연속성은'. */
export function josa(word: string, particle: keyof typeof PAIRS): string {
  const [withFinal, without] = PAIRS[particle];
  // ㄹ-final words take 로, not 으로 (서울로).
  const last = word.charCodeAt(word.length - 1);
  const rieul = last >= 0xac00 && last <= 0xd7a3 && (last - 0xac00) % 28 === 8;
  return `${word}${hasFinal(word) && !(particle === '으로' && rieul) ? withFinal : without}`;
}

/** "a, b and c" / "a, b, c" lists. */
export function listJoin(items: string[], lang: Language): string {
  if (lang === 'ko') return items.join(', ');
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const CIRCLED = ['①', '②', '③', '④', '⑤', '⑥', '⑦', '⑧', '⑨', '⑩'];

export function marker(i: number, lang: Language): string {
  return lang === 'ko' ? (CIRCLED[i] ?? `${i + 1}.`) : `(${i + 1})`;
}

// 평서문 '-다'를 합쇼체 '-습니다/-ㅂ니다'로: 질문 속에 든 해석 문장을 질문과 같은 높임으로 맞춘다.
function politeEnding(prev: string): string {
  const code = prev.charCodeAt(0);
  if (code < 0xac00 || code > 0xd7a3) return `${prev}입니다`;
  const final = (code - 0xac00) % 28;
  const withFinal = (jong: number) => String.fromCharCode(code - final + jong);
  if (final === 4) return `${withFinal(17)}니다`; // 된다 → 됩니다, 준다 → 줍니다
  if (final === 0) return `${withFinal(17)}니다`; // 이다 → 입니다, 아니다 → 아닙니다
  return `${prev}습니다`; // 있다 → 있습니다, 않았다 → 않았습니다
}

/** Plain Korean sentence endings turned formal-polite: 유지된다 → 유지됩니다, 않는다 → 않습니다. */
export function polite(text: string): string {
  return text.replace(/([가-힣]?)([가-힣])다(?=[.!?]?(?:\s|$))/g, (_, before: string, prev: string) =>
    prev === '는' && before ? `${before}습니다` : `${before}${politeEnding(prev)}`,
  );
}
