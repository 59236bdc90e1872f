// NAS: the single-agent baseline (docs/protocols.md). One call sees the pool summary and, when a
// search provider is configured, web results inside the recency window; no debate follows, so
// the task asks for the claim → evidence → implication chain a debate would otherwise build.
import type { ProtocolDef } from '@/lib/domain/protocol';
import { POOL_REPORT_SECTIONS } from '@/lib/debate/protocols/report-sections';

export const NAS: ProtocolDef = {
  id: 'nas',
  name: 'Single agent (NAS)',
  description: 'One model call over the pool and web results: a factor-by-factor report, no debate.',
  steps: [
    {
      id: 'NAS',
      agent: 'analyst',
      role: 'analyst',
      team: 'neutral',
      act: 'report',
      context: [],
      webSearch: true,
      evidence: 'pool',
      output: 'report',
      // Written as sections at the same time, the overview last (an execution detail: report-sections.ts).
      sections: POOL_REPORT_SECTIONS,
      task: [
        'You are the only analyst on this case: no one will challenge or complete your work, so weigh both directions yourself.',
        'Use the evidence block. If no topic cites a web result, say in `overview` that the report rests on the pool alone.',
        'Go factor by factor. For every factor the evidence speaks to, reason from claim to evidence to what it implies for repayment, and record it as a `topics` entry, one per topic (a factor may hold several): the favorable reading in `affirmative`, the adverse reading in `adverse` (an empty string when the evidence supports only one side), and the citations behind both.',
        'Same element at different dates or values: keep separate entries. Never two entries for the same topic.',
        '- `objective`: one sentence on what was assessed, for which borrower, as of which date.',
        '- `overview`: a short corporate overview as of the as-of date, from the company block (who the borrower is) and the evidence; nothing from memory.',
        '- `favorableSummary` / `adverseSummary`: the main points on each side, each with its date.',
      ].join('\n'),
      searchTask: 'You may also search the web for dated news on the borrower inside the recency window; cite the results you use like evidence items.',
    },
  ],
  reportStep: 'NAS',
};
