// How the long final reports are written as sections (StepDef.sections, docs/protocols.md
// "Sections"): data shared by the protocol files. Each section is one call, all at the same time;
// the overview is written last, from them. The order here is the order of the finished report.

import type { StepSections } from '@/lib/domain/protocol';

const TOPICS_OF = (factors: string) =>
  `Write the \`topics\` entries on ${factors} only, by the rules of the task above; other calls write the other factors' topics and the summaries, at the same time. If nothing in the material bears on these factors, answer with an empty list; otherwise write an entry for every topic the material holds on them.`;

/**
 * The `report` of KPD-MADS's aggregator: topics in two factor groups — governance first,
 * where red flags are read, then the business (the industry, the cycle and the firm itself) —
 * and the two summaries in a third call; then the objective and overview from them. Each topic
 * call is shown the material on its factors only (lib/debate/section-prompts.ts) but carries the
 * run header and the step's task (about 1,600 tokens on the engine benchmark's Samsung case):
 * a third topic group, as there was, cost that much more for about 4 s off the critical path.
 */
// The aggregator's task asks every source the debate cites to appear in some topic; a topic call
// sees its factors' share of the debate only, so it is told which part of that rule is its own.
const DEBATE_SOURCES =
  " Of the debate's sources that must appear in some topic's citations, yours are those the material shown to you cites; the other calls cite the rest.";

const GOVERNANCE = {
  key: 'governance',
  fields: ['topics'],
  factors: ['internal_control_risk'],
  task: TOPICS_OF('internal control risk (`internal_control_risk`)'),
};

export const REPORT_SECTIONS: StepSections = {
  parts: [
    { ...GOVERNANCE, task: GOVERNANCE.task + DEBATE_SOURCES },
    {
      key: 'business',
      fields: ['topics'],
      factors: [
        'industry_growth_outlook',
        'industry_competition_intensity',
        'technological_disruption_risk',
        'economic_sensitivity',
        'management_continuity',
        'employment_stability',
        'government_support_programs',
        'certifications',
        'public_interest_trend',
        'other',
      ],
      task:
        TOPICS_OF(
          'the industry and the cycle (`industry_growth_outlook`, `industry_competition_intensity`, `technological_disruption_risk`, `economic_sensitivity`), the firm itself (`management_continuity`, `employment_stability`, `government_support_programs`, `certifications`, `public_interest_trend`) and evidence outside the ten factors (`other`)',
        ) + DEBATE_SOURCES,
    },
    {
      key: 'summaries',
      fields: ['favorableSummary', 'adverseSummary'],
      task: 'Write `favorableSummary` and `adverseSummary` only, by the rules of the task above, over every factor; other calls write the topics at the same time.',
    },
  ],
  overview: {
    fields: ['objective', 'overview'],
    // The step's task says to write the overview from the company block and the debate (or the
    // evidence); this call is shown neither, so it is told what stands in for them.
    task: 'The topics (by their titles) and the summaries of this report are written: they follow, as data, in place of the material the sections read, which this call is not shown. Write `objective` and `overview` only, by the rules of the task above, from the company block and what the sections say; do not repeat them.',
  },
};

const MARKET = ['industry_growth_outlook', 'industry_competition_intensity', 'technological_disruption_risk', 'economic_sensitivity'];
const FIRM = ['management_continuity', 'employment_stability', 'government_support_programs', 'certifications', 'public_interest_trend', 'other'];

/**
 * NAS's report: the same, with the business in two groups — the industry and the cycle, then
 * the firm itself. One agent reads the whole pool and writes a topic for every factor it speaks
 * to, so one business call would write most of the report alone: on the engine benchmark's
 * Samsung case it made NAS take 44.4 s instead of 28.4 s (at 50 tokens/s) to save 1,856 prompt
 * tokens.
 */
export const POOL_REPORT_SECTIONS: StepSections = {
  parts: [
    GOVERNANCE,
    {
      key: 'market',
      fields: ['topics'],
      factors: MARKET,
      task: TOPICS_OF(
        'the industry and the cycle (`industry_growth_outlook`, `industry_competition_intensity`, `technological_disruption_risk`, `economic_sensitivity`)',
      ),
    },
    {
      key: 'firm',
      fields: ['topics'],
      factors: FIRM,
      task: TOPICS_OF(
        'the firm itself (`management_continuity`, `employment_stability`, `government_support_programs`, `certifications`, `public_interest_trend`) and evidence outside the ten factors (`other`)',
      ),
    },
    ...REPORT_SECTIONS.parts.slice(2),
  ],
  overview: REPORT_SECTIONS.overview,
};
