// Decisive credit events that happened: a default, an insolvency proceeding, a trading halt, tax
// arrears, a sanction or fine imposed, an audit opinion other than clean, a lawsuit lost. An
// investigation, a suit filed or a fine that "may" come is not one (lib/pool/red-flags-rules.ts,
// NOT_YET): it stays an adverse item the debate weighs. The rule table
// that finds them in a pool lives in lib/pool/red-flags.ts; a run keeps the ones it found
// (`runs.red_flags`) so its report, exports and checks read the same list later.

export const RED_FLAG_KINDS = [
  'payment_default',
  'court_rehabilitation',
  'bankruptcy',
  'creditor_workout',
  'trading_suspension',
  'delisting',
  'tax_arrears',
  'regulatory_sanction',
  'audit_opinion',
  'going_concern',
  'lawsuit_lost',
] as const;
export type RedFlagKind = (typeof RED_FLAG_KINDS)[number];

/**
 * One decisive event, named by the evidence item it was found in. When more items report the
 * same event (the same filing reached the pool twice: lib/pool/red-flag-events.ts),
 * `alsoEvidenceIds` names the others; the flag is still one.
 */
export type RedFlag = { kind: RedFlagKind; evidenceId: string; date: string; title: string; alsoEvidenceIds?: string[] };

/**
 * Why a run ended as `insufficient_evidence`: what the pool held at the as-of date against the
 * stated threshold, and which factors had nothing.
 */
export type EvidenceShortfall = {
  items: number;
  factors: number;
  minItems: number;
  minFactors: number;
  missingFactors: string[];
};
