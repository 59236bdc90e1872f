// How each guideline factor bears on repayment, in English: the reading of a favorable and of
// an adverse item, the assumption behind each, what would refute it, and the standard
// objection to each reading. Phrases are clauses, so sentence templates can wrap them.
import type { FactorId } from '@/lib/domain/factors';
import type { FactorWords } from './factor-words';
import type { Signal } from './reading';

export const LEXICON_EN: Record<FactorId, FactorWords> = {
  industry_growth_outlook: {
    favReading: 'a growing market widens the revenue base that services debt',
    advReading: 'a shrinking market squeezes the revenue that services debt',
    favAssumption: "the market's growth reaches the company's own product lines",
    advAssumption: 'the fall in demand lasts beyond the current cycle',
    favFalsifier: "a newer outlook showing demand contracting in the company's markets",
    advFalsifier: "newer data showing demand recovering in the company's main markets",
    favChallenge: 'industry growth is an average; it does not show that this borrower captures it',
    advAlternative: 'the decline may be confined to some product lines or to one year of the cycle',
  },
  industry_competition_intensity: {
    favReading: 'a leading market position gives pricing power and protects the margins that fund repayment',
    advReading: 'intense competition erodes the prices and margins that fund repayment',
    favAssumption: 'the leading share holds against new and low-cost rivals',
    advAssumption: "the pressure reaches the company's core products, not only a niche",
    favFalsifier: 'a share loss in a core product line',
    advFalsifier: 'stable or rising share in the core product lines',
    favChallenge: 'market share measures position, not profitability; a leader can still lose margin in a price war',
    advAlternative: 'the pressure may be limited to one segment while the core products hold their position',
  },
  technological_disruption_risk: {
    favReading: 'a strong patent and R&D base lowers the risk of being displaced by new technology',
    advReading: 'exposure to technological change can make products obsolete before the loan is repaid',
    favAssumption: 'the protected technology stays commercially relevant',
    advAssumption: 'the company cannot replace lapsing technology with new rights',
    favFalsifier: 'core patents lapsing or being invalidated, or a main product line made obsolete',
    advFalsifier: 'new registrations or R&D output in the core technology',
    favChallenge: 'patent counts measure inputs, not sales; a registration does not show the technology earns cash',
    advAlternative: 'lapsed or pending rights can be normal portfolio turnover rather than lost capability',
  },
  economic_sensitivity: {
    favReading: 'resilience to the cycle keeps cash flow steadier through downturns',
    advReading: 'cyclical exposure can cut cash flow just when repayments fall due',
    favAssumption: "demand for the company's products holds through a downturn",
    advAssumption: 'the macro pressure persists into the repayment period',
    favFalsifier: 'sales falling with the cycle',
    advFalsifier: 'results that held up through the stated macro pressure',
    favChallenge: 'one resilient period does not prove resilience in a deeper downturn',
    advAlternative: 'the pressure may be temporary — weather or a one-off shock — rather than structural',
  },
  government_support_programs: {
    favReading: 'public support lowers costs and signals policy backing',
    advReading: 'exclusion from support, or support tied to obligations, removes a cost cushion',
    favAssumption: 'the support continues for the life of the loan',
    advAssumption: "the exclusion or obligation is material to the company's economics",
    favFalsifier: 'support withdrawn, clawed back or made conditional',
    advFalsifier: 'evidence that the affected support is small relative to revenue',
    favChallenge: 'support that can be withdrawn is a dependency as much as a strength',
    advAlternative: "the exclusion or obligation may be local and small relative to the company's scale",
  },
  internal_control_risk: {
    favReading: 'clean audit and governance findings lower the risk of surprises in reported numbers',
    advReading: 'legal, regulatory or distress events can divert cash and management attention from repayment',
    favAssumption: 'no new material weakness, sanction or major legal loss emerges',
    advAssumption: 'the proceedings lead to payments or restrictions that matter for cash flow',
    favFalsifier: 'a qualified opinion, a material weakness, a sanction or a lost major case',
    advFalsifier: 'dismissals, settlements at immaterial cost, or a clean audit after the events',
    favChallenge: 'an audit opinion covers the accounts, not the legal and regulatory exposure',
    advAlternative: 'the disclosed matters may be routine for a company of this size and already provided for',
  },
  management_continuity: {
    favReading: 'a stable leadership keeps strategy and the repayment plan consistent',
    advReading: 'leadership turnover or dependence on one person puts strategy and execution at risk',
    favAssumption: 'the current leadership stays through the loan term',
    advAssumption: 'the changes touch the people who run the business, not routine board rotation',
    favFalsifier: 'a resignation or dismissal of the chief executive or key officers',
    advFalsifier: 'an orderly succession with internal candidates and an unchanged strategy',
    favChallenge: 'long tenure can also mean concentration on a few people and a succession risk',
    advAlternative: 'the disclosed changes may be planned rotation rather than instability',
  },
  employment_stability: {
    favReading: 'a stable, experienced workforce supports steady operations',
    advReading: 'labour disputes or cuts can disrupt operations and cash flow',
    favAssumption: 'headcount and tenure hold without major labour disputes',
    advAssumption: 'the labour issue escalates to stoppages or costly settlements',
    favFalsifier: 'large layoffs, strikes or a sharp fall in tenure',
    advFalsifier: 'an agreement reached without a stoppage',
    favChallenge: 'headcount and tenure describe the workforce, not its cost or productivity',
    advAlternative: 'the issue may be ordinary negotiation rather than a threat to operations',
  },
  certifications: {
    favReading: 'held certifications show processes that meet external standards',
    advReading: 'a revoked or lapsed certification signals a breach of standards',
    favAssumption: 'the certifications are renewed and cover the main operations',
    advAssumption: 'the revocation reflects a wider compliance problem',
    favFalsifier: 'a revocation or a failed renewal',
    advFalsifier: 're-certification, or a finding limited to one site',
    favChallenge: 'a certificate is a compliance baseline; it does not generate cash',
    advAlternative: 'the revocation may concern one site while the other certifications remain',
  },
  public_interest_trend: {
    favReading: 'rising public interest supports demand and access to funding',
    advReading: 'fading public interest can foreshadow weaker demand',
    favAssumption: 'the interest turns into sales',
    advAssumption: 'the fall in interest reflects customers, not the news cycle',
    favFalsifier: 'interest rising on negative news',
    advFalsifier: 'stable sales despite lower interest',
    favChallenge: 'attention is not demand; interest can spike on bad news',
    advAlternative: 'interest may fall as a news cycle ends, with demand unchanged',
  },
  other: {
    favReading: 'the item points to business activity that can support cash flow',
    advReading: 'the item points to a cost or obligation that can weigh on cash flow',
    favAssumption: 'the activity turns into revenue within the loan term',
    advAssumption: "the cost is material relative to the company's cash flow",
    favFalsifier: 'the plan being cancelled or delayed',
    advFalsifier: 'evidence that the cost is small or already absorbed',
    favChallenge: 'a plan or agreement is not yet cash; its terms and timing are not in the item',
    advAlternative: 'the item may be a routine disclosure with little effect on cash flow',
  },
};

/** Categories whose reading differs from their factor's default. */
export const CATEGORY_EN: Record<string, Partial<FactorWords>> = {
  distress_creditor_management: {
    favAssumption: "the creditors' council keeps supporting the normalisation plan to its end date",
    favFalsifier: 'the procedure being extended, or creditors moving the company into court rehabilitation',
    advReading: 'a creditor-managed procedure means the company could not meet its obligations on its own',
    advAssumption: 'the normalisation plan slips or fails before the procedure ends',
    advFalsifier: 'the procedure ending on schedule with the normalisation plan met',
    advAlternative: 'a creditor-led procedure means the lenders chose to support normalisation over liquidation, on a fixed timetable',
  },
  distress_rehabilitation: {
    advReading: 'court rehabilitation means existing creditors face restructured claims',
    advAssumption: 'the rehabilitation plan is not met',
    advFalsifier: 'the court confirming the plan and ending the procedure',
    advAlternative: 'rehabilitation keeps the business running under court supervision rather than liquidating it',
  },
  distress_default: {
    advReading: 'a default on an obligation is direct evidence of repayment stress',
    advAlternative: 'the default may have been cured or concern a small obligation',
  },
  risk_factor: {
    advAlternative: 'a risk factor in a filing is a required disclosure of what could happen, not an event that has happened',
  },
  legal_proceedings: {
    advAlternative: 'pending proceedings are allegations, not outcomes; their cost is not yet known',
  },
};

/**
 * Kinds of item whose words call for their own reading, whatever their factor (reading.ts
 * `signalOf`): a suit won is not a clean audit, a lapsed patent is not a patent base.
 */
export const SIGNAL_EN: Partial<Record<Signal, Partial<FactorWords>>> = {
  suit_won: {
    favReading: 'the suit ended in the company’s favour, which removes a contingent liability',
    favAssumption: 'the ruling is not reversed on further appeal and related suits end the same way',
    favFalsifier: 'the ruling reversed, or a related suit lost',
    favChallenge: 'a suit won does not close related suits or appeals that are still pending',
  },
  suit_withdrawn: {
    favReading: 'the suits were withdrawn or settled, which closes a litigation exposure',
    favAssumption: 'no new suit is filed over the same matter',
    favFalsifier: 'a new suit over the same matter',
    favChallenge: 'the terms of the settlement are not in the item and may carry their own cost',
  },
  suit_pending: {
    advReading: 'pending litigation can end in damages, fees or restrictions that draw on cash',
    advAssumption: 'the proceedings end in payments or restrictions that matter for cash flow',
  },
  sanction: {
    advReading: 'a fine or criminal sanction shows a compliance failure that costs cash and standing with regulators',
    advAssumption: 'the failure behind the sanction is not isolated and recurs',
    advFalsifier: 'remediation confirmed by the regulator, with no further sanction',
    advAlternative: 'the sanction may be paid and the failure remedied, with no further cost',
  },
  audit_qualified: {
    advReading: 'an audit opinion other than clean means the reported numbers cannot be fully relied on',
    advAssumption: 'the auditor’s reservation concerns balances that matter for repayment',
    advFalsifier: 'a clean opinion on the next accounts',
  },
  buyback: {
    favReading: 'a buyback of this size shows cash beyond what operations need',
    advReading: 'cash returned to shareholders is no longer available to creditors',
    favAssumption: 'the buyback is funded from surplus cash, not from borrowing',
    advAssumption: 'the buyback is large relative to the cash that services debt',
    favFalsifier: 'the buyback funded by new debt',
    advFalsifier: 'cash and leverage unchanged after the buyback',
    favChallenge: 'cash spent on shareholders is cash not kept for creditors',
    advAlternative: 'a buyback from surplus cash leaves the capacity to repay intact',
  },
  patent_lapsed: {
    favReading: 'an old right lapsing is ordinary portfolio turnover and does not touch the current product lines',
    advReading: 'a lapsed right no longer protects the technology it covered',
    favAssumption: 'the lapsed right covers technology the company no longer sells',
    advAssumption: 'the lapsed right covered technology still in the core products',
    favChallenge: 'lapsed rights leave the technology open to rivals',
  },
  patent_pending: {
    favReading: 'a pending application shows R&D still feeding the pipeline',
    advReading: 'a pending application is not yet a protected right',
    favAssumption: 'the application is granted',
    favFalsifier: 'the application rejected or withdrawn',
    favChallenge: 'an application is not a granted right; it may be rejected',
  },
  filing_index: {
    favReading: 'the filing records a corporate event whose terms are not in the index; at most it shows normal activity',
    advReading: 'the filing records an event whose terms are not in the index; until the filing is read its effect is unknown',
    favAssumption: 'the filing itself shows nothing that weighs on repayment',
    advAssumption: 'the filing itself shows a change that weighs on repayment',
    favFalsifier: 'the filing showing a departure, a new obligation or a loss',
    advFalsifier: 'the filing showing a routine matter',
    favChallenge: 'an index entry shows only the item code, not what happened',
    advAlternative: 'most such filings are routine: appointments, pay and votes',
  },
  support_dependence: {
    advReading: 'demand that depends on public incentives can fall when they are cut',
    advAssumption: 'the incentives are reduced or ended within the loan term',
    advFalsifier: 'incentives extended, or demand holding where they have ended',
    advAlternative: 'incentives may be extended, and demand may hold without them',
  },
  support_obligation: {
    favReading: 'the arrangement ties public support to commitments the company is meeting',
    advReading: 'spending and hiring obligations tie up cash and carry penalties if missed',
    favAssumption: 'the commitments keep being met',
    advAssumption: 'the commitments are missed and penalties follow',
    favFalsifier: 'a commitment missed or a penalty paid',
    advFalsifier: 'the commitments met on schedule',
  },
  contraction: {
    advReading: 'a shrinking market squeezes the revenue that services debt',
  },
};

/**
 * Readings framed on the item itself, for an item whose words do not carry its factor's stock
 * reading (lexicon.ts FACT_TERMS): `stated` for an item read one way, `context` for one that
 * records no event either way. They assert nothing the item does not.
 */
export const NEUTRAL_EN: Record<'stated' | 'context', Pick<FactorWords, 'favReading' | 'advReading' | 'favAssumption' | 'advAssumption'>> = {
  stated: {
    favReading: 'as the item states it, this counts for the capacity to repay, and it claims no more than that',
    advReading: 'as the item states it, this can weigh on the capacity to repay',
    favAssumption: 'what the item states still holds through the loan term',
    advAssumption: 'what the item describes comes to pass within the loan term and is material',
  },
  context: {
    favReading: 'the item records no adverse event, and it shows nothing more for the capacity to repay',
    advReading: 'the item records no event either way; the risk lies in what it leaves unstated',
    favAssumption: 'nothing the item leaves unstated weighs on repayment',
    advAssumption: 'what the item leaves unstated weighs on repayment',
  },
};
