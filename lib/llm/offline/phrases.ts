// The sentences of the debate, one implementation per language (phrases-en.ts, phrases-ko.ts)
// behind one interface, so the protocol modules build the same argument in either language and
// a reviewer can read the two files side by side. Nothing here decides what to argue.
import type { Language } from '@/lib/domain/protocol';
import type { CompanyBrief } from '@/lib/llm/types';
import type { FactorWords } from './lexicon';
import type { Item, SourceKind } from './material';
import type { Pick, Side } from './select';

/** What a question is about: the kinds the KPD-MADS tasks name (protocols/kpd-mads.ts), plus a generic one. */
export type QuestionKind =
  | 'interpretation'
  | 'reliability'
  | 'counterexample'
  | 'alternative'
  | 'boundary'
  | 'measurement'
  | 'consistency'
  | 'credibility'
  | 'testability'
  | 'gap'
  | 'omitted'
  | 'contradiction'
  | 'challenge';

export type QuestionData = {
  kind: QuestionKind;
  /** The step questioned, e.g. D1. */
  step: string;
  /** The words of the claim being challenged. */
  quote: string;
  factor: string;
  words: FactorWords;
  /** The evidence the challenged claim cites, when the step can see it. */
  item?: Item;
  sourceKind?: SourceKind;
  /** Evidence in the pool that reads against the claim. */
  counter?: Item;
  /** The side the challenged claim argues for. */
  against: Side;
  /** The cited item is tagged for the other side than the claim reads it. */
  itemAgainst: boolean;
  asOf: string;
  recencyDays: number;
};

export type AnswerData = {
  kind: string;
  /** The assumption the answered claim stated, when it stated one. */
  assumption?: string;
  question: string;
  factor: string;
  words: FactorWords;
  item?: Item;
  side: Side;
  recencyDays: number;
};

export type RebuttalData = {
  step: string;
  quote: string;
  factor: string;
  side: Side;
  mode: 'counter' | 'context' | 'reinterpret';
  /** Reinterpretation of an item tagged for the rebutting side: it is read as tagged. */
  tagged: boolean;
  item: Item;
  words: FactorWords;
};

export interface Phrases {
  lang: Language;
  label(factor: string): string;
  company(c: CompanyBrief): string;
  /** "(source, date)" with the stale mark when the item is older than the recency window. */
  ref(item: Item): string;
  quote(text: string): string;
  /**
   * The item as a speaker names it: its short title, and its value when the title lacks it. A
   * title in the other language is marked as a quotation from a Korean (or English) source.
   */
  name(item: Item): string;
  side(side: Side): string;

  // Constructive speeches.
  core(company: string, side: Side): string;
  claim(pick: Pick, side: Side, words: FactorWords): string;
  /**
   * `repeat`: same factor as the line before, so the label is not said again; `bare`: every
   * line has the same source, named once by `sourceNote`, so a line gives only its date.
   */
  line(index: number, pick: Pick, repeat: boolean, bare: boolean): string;
  sourceNote(source: string): string;
  reading(pick: Pick, side: Side, words: FactorWords): string;
  assumption(pick: Pick, side: Side, words: FactorWords): string;
  falsifiability(list: { factor: string; falsifier: string }[]): string;
  assumptionsLine(list: string[]): string;
  staleNote(count: number, recencyDays: number): string;
  reuseNote(labels: string[], times: number): string;
  freshNote(otherStep: string, labels: string[]): string;
  crossedNote(labels: string[], thin: boolean): string;
  /** `factors`: distinct factors among the signals found. */
  thinNote(args: { given: number; found: number; wanted: number; factors: number; side: Side; reread: boolean }): string;

  // Cross-examinations.
  crossHeader(step: string, labels: string[], count: number): string;
  question(data: QuestionData): string;
  noClaimQuestion(step: string, kind: QuestionKind): string;

  // Rebuttals.
  rebuttalHeader(step: string): string;
  rebuttal(data: RebuttalData): string;
  rebuttalLine(index: number, data: RebuttalData, short: boolean): string;
  nothingToRebut(step: string): string;

  /** Whether a question (as this language writes it) sets dated counter-evidence against its claim. */
  raisesCounter(questionText: string): boolean;

  // Closings.
  closingHeader(company: string, side: Side): string;
  closingBasis(list: { factor: string; date: string; stale: boolean }[]): string;
  answer(data: AnswerData): string;
  answerLine(index: number, questionId: string, answer: string): string;
  standing(factor: string, item: Item | undefined, words: FactorWords, side: Side): string;
  pressed(step: string, count: number, labels: string[]): string;
  uncertain(args: { stale: number; challenged: number; thin: boolean }): string;
  noMaterial(side: Side): string;

  // Reports (KPD-MADS aggregator and NAS).
  objective(company: string, asOf: string): string;
  /** `readings`: the factors the debate argued, by which way its claims read them (favorable only, adverse only, both). */
  overview(args: {
    company: CompanyBrief;
    items: number;
    sources: number;
    from: string;
    to: string;
    stale: number;
    poolOnly: boolean;
    thin: boolean;
    readings?: { favorable: string[]; adverse: string[]; contested: string[] };
  }): string;
  topicName(factor: string, date: string, split: boolean): string;
  summaryLine(factor: string, text: string, date: string): string;
  asked(step: string, text: string): string;
  /** A cross-examination question in a report topic: who asked and what it probed, not the whole question. */
  questioned(step: string, kind: QuestionKind | undefined): string;
  /** A closing kept a reading its side had argued, on the same items: "D9 kept it." */
  kept(step: string): string;
  chain(args: { item: Item; side: Side; words: FactorWords; more: Item[]; context: boolean }): string;
}

/** "Samsung Electronics" from "Samsung Electronics Co., Ltd.", "윈텍오토메이션" from "주식회사 윈텍오토메이션". */
export function displayName(name: string): string {
  return name
    .replace(/^(주식회사|\(주\)|㈜)\s*/, '')
    .replace(/\s*(주식회사|\(주\)|㈜)$/, '')
    .replace(/,?\s+(Co\.,?\s*Ltd\.?|Inc\.?|Corp(oration|\.)?|Ltd\.?|Limited|plc|LLC|N\.V\.|S\.A\.|AG)$/i, '')
    .trim();
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Factors grouped by the date of their evidence, newest first: "A and B (2025-01-30)". */
export function byDate(list: { factor: string; date: string; stale: boolean }[]): [string, boolean, string[]][] {
  const groups = new Map<string, { stale: boolean; factors: string[] }>();
  for (const x of list) {
    const g = groups.get(x.date) ?? { stale: x.stale, factors: [] };
    g.factors.push(x.factor);
    groups.set(x.date, g);
  }
  return [...groups.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([date, g]) => [date, g.stale, g.factors]);
}

/** Ends a sentence with a full stop unless it already ends with punctuation or an ellipsis. */
export function stop(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** What a rebuttal says about the reinterpreted item: its own reading when it is tagged for the rebutting side. */
export function rereading(d: { side: Side; tagged: boolean; words: FactorWords }): string {
  if (d.tagged) return d.side === 'favorable' ? d.words.favReading : d.words.advReading;
  return d.side === 'favorable' ? d.words.advAlternative : d.words.favChallenge;
}

/** English possessive: "Tesla's", "Samsung Electronics'". */
export function poss(name: string): string {
  return /s$/.test(name) ? `${name}'` : `${name}'s`;
}
