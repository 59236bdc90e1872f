// The interface of the offline analyst's sentences for the protocols other than KPD-MADS, and the
// shapes it speaks of; panel-en.ts and panel-ko.ts implement it, panel.ts picks one by language.
// Types only, so the implementations need not import the module that imports them.
import type { Horizon, StepOutput, StoredStanceDraft } from '@/lib/domain/outputs';
import type { SpecialistFocus, Team } from '@/lib/domain/protocol';
import type { FactorWords } from './factor-words';
import type { Item } from './material';
import type { Pick, Side } from './select';

export type Support = { items: number; fresh: number; answered: number; score: number };
export type Stance = 'favorable' | 'neutral' | 'adverse';
/** A stance draft as read from a step's context: horizons are codes, or an older run's labels. */
export type Draft = StoredStanceDraft;
export type Response = StepOutput<'responsesRound'>['responses'][number];
export type Argument = StepOutput<'argumentsRound'>['arguments'][number];
export type Standing = 'UPHELD' | 'PARTIALLY_UPHELD' | 'REFUTED' | 'UNCERTAIN';

export interface Panel {
  // Briefings.
  /** The briefing's title: its lane's, or a plain one for a step that declares none. */
  laneTitle(focus: SpecialistFocus | undefined): string;
  /** A standing caveat of the lane ('' for none). */
  laneNote(focus: SpecialistFocus | undefined): string;
  briefingHeader(title: string, findings: number, given: number): string;
  figure(item: Item): string;
  contextFinding(item: Item, w: FactorWords): string;
  quoted(item: Item, words: string, w: FactorWords, side: Side): string;
  silent(labels: string[]): string;
  nothingGiven(title: string): string;
  narrativeIntro(company: string, industry: string | null, points: number): string;
  narrativePoint(item: Item, w: FactorWords, side: Side): string;

  // SAS.
  verdict(stepId: string, team: Team, convinced: boolean, why: { unanswered: string[]; weak: 'stale' | 'reread' | null }): string;
  pressUnanswered(questionId: string, text: string): string;
  pressEmpty(stepId: string): string;
  nothingToJudge(): string;
  noFollowUp(side: Side): string;
  cannotAnswer(questionId: string): string;
  judgment(winner: 'affirmative' | 'negative', aff: Support, neg: Support): string;
  noCaseAssumption(winner: 'affirmative' | 'negative'): string;
  noCaseCritique(winner: 'affirmative' | 'negative'): string;
  assumption(factor: string, text: string): string;
  critique(args: { factor: string; item?: Item; counter?: Item; challenged: boolean; falsifier: string }): string;
  executive(args: { company: string; asOf: string; side: Side; lead: string[]; against: string[]; items: number; fresh: number; thin: boolean }): string;
  takeaway(kind: 'lead' | 'against', item: Item, side: Side): string;
  staleTakeaway(stale: number, total: number, days: number): string;
  fragileTakeaway(assumption: string): string;
  thinTakeaway(items: number): string;
  primaryRisk(assumption: string, critique: string): string;
  mitigation(falsifiers: { factor: string; text: string }[], silent: string[]): string;
  outlook(side: Side, newest: string, days: number): string;
  reviewIntro(items: number, from: string, to: string): string;
  reviewFactor(args: {
    factor: string;
    favorable: Item[];
    adverse: Item[];
    context: Item[];
    words: FactorWords;
    balance: 'favorable' | 'adverse' | 'mixed' | 'context';
  }): string;

  // Three-round debate.
  argsHeader(side: Side, company: string, count: number): string;
  argClaim(item: Item, side: Side): string;
  argReasoning(pick: Pick, side: Side, w: FactorWords): string;
  responsesHeader(stepId: string, count: number): string;
  responseReasoning(kind: Response['kind'], args: { factor: string; theirs?: Item; counter?: Item; side: Side; words: FactorWords }): string;
  responseFollowUp(kind: Response['kind'], args: { factor: string; theirs?: Item; side: Side; words: FactorWords }): string;
  responseLine(response: Response): string;
  concession(response: Response, argument?: Argument): string;
  finalPosition(side: Side, company: string, counts: { standing: number; refuted: number; conceded: number }): string;
  closingText(args: { side: Side; concessions: string[]; unrebutted: string[]; refuted: string[]; finalPosition: string }): string;
  anecdotal(item: Item): string;
  traceNote(standing: Standing, kind: Response['kind'] | undefined, item?: Item): string;
  keyInsight(best: { id: string; weighted: number; factor: string } | undefined, totals: { affirmative: number; negative: number }): string;
  recommendation(totals: { affirmative: number; negative: number }, unresolved: number): string;

  // FinDebate.
  /** The two horizons the draft gives (HORIZONS in lib/domain/outputs.ts), near first. */
  horizons(): [Horizon, Horizon];
  draftText(args: {
    company: string;
    stance: Stance;
    horizons: Draft['horizons'];
    favorable: string[];
    adverse: string[];
    items: number;
    stale: number;
    note?: string;
  }): string;
  leaderNote(moved: boolean, from: Stance, to: Stance, added: number): string;
  trustHeader(stance: Stance): string;
  trustNone(factor: string): string;
  trustClaim(item: Item, w: FactorWords, polarity: string): string;
  skepticHeader(risks: number): string;
  riskClaim(item: Item, w: FactorWords): string;
  offset(risk: Item, offset: Item | undefined, w: FactorWords): string;
  scenarios(stance: Stance, assumptions: string[]): string;
  safetyReason(args: { stanceChanged: boolean; horizonsChanged: boolean; draft: Draft; final: Draft }): string;
}
