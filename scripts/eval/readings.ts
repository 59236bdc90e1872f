// `npx tsx scripts/eval/readings.ts`: the offline analyst's reading agreement on every demo
// company and on fresh imports of real filings (lib/eval/reading-agreement.ts,
// lib/eval/reading-cases.ts), one line per pool and protocol, then every disagreement and every
// claim whose wording its item does not carry. `--json` prints the results as JSON.
import { measureCase, type CaseResult } from '@/lib/eval/reading-agreement';
import { DEMO_CASES, demoCase, freshImportCases } from '@/lib/eval/reading-cases';

async function main() {
  const cases = [...DEMO_CASES.map((c) => demoCase(c.companyId, c.language, c.asOf)), ...(await freshImportCases())];
  const results: CaseResult[] = [];
  for (const c of cases) results.push(await measureCase(c));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  for (const r of results) {
    if (r.skipped) {
      console.log(`${r.label}: skipped, below the evidence threshold (${r.skipped})`);
      continue;
    }
    const t = r.total;
    console.log(
      `${r.label}: ${t.claims} claims citing the pool, ${t.judged} judged, ${t.agree} agree, ${t.disagree} disagree, ${t.unsupported} with wording the item does not carry`,
    );
    for (const [id, n] of Object.entries(r.byProtocol))
      console.log(`  ${id.padEnd(12)} claims ${n.claims}  judged ${n.judged}  agree ${n.agree}  disagree ${n.disagree}  unsupported ${n.unsupported}`);
    for (const d of r.disagreements)
      console.log(`  DISAGREE ${d.protocol}/${d.step}/${d.claimId} ${d.polarity} cites ${d.evidenceId} read ${d.reading}: ${d.text.slice(0, 160)}`);
    for (const u of r.unsupported) console.log(`  UNSUPPORTED ${u.protocol}/${u.step}/${u.claimId} "${u.phrase}" on ${u.evidenceIds}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
