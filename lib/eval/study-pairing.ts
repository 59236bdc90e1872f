// Whether a study's picked reports can be compared: the results pair one evaluator's ratings of
// the same company's reports by two systems (lib/eval/study-results.ts), so a report whose company
// has no report of another system in the study never enters a test, and a pair whose reports are
// written in different output languages compares the languages as much as the systems. Pure and
// free of server imports: the new-study form shows the same warnings the server enforces.

export type PickedReport = { reportId: string; companyId: string; protocol: string; language: string | null };

export type PickProblems = {
  /** Reports whose company has no report of another system among the picks, in pick order. */
  unpaired: string[];
  /** Companies whose picked reports are in more than one output language, languages sorted. */
  mixedLanguages: { companyId: string; languages: string[] }[];
};

export function pickProblems(picks: readonly PickedReport[]): PickProblems {
  const byCompany = new Map<string, PickedReport[]>();
  for (const p of picks) byCompany.set(p.companyId, [...(byCompany.get(p.companyId) ?? []), p]);
  const unpaired = picks.filter((p) => !byCompany.get(p.companyId)!.some((q) => q.protocol !== p.protocol)).map((p) => p.reportId);
  const mixedLanguages = [...byCompany]
    .map(([companyId, group]) => ({ companyId, languages: [...new Set(group.map((p) => p.language ?? '—'))].sort() }))
    .filter((c) => c.languages.length > 1);
  return { unpaired, mixedLanguages };
}

export function hasPickProblems(p: PickProblems) {
  return p.unpaired.length > 0 || p.mixedLanguages.length > 0;
}
