// A run's transcript as text for the rubric judge: the finished turns in protocol order, each
// with its arguments named by id so the judge can score them. Turns are labelled "Turn n" with
// side and act, not with step ids (D5, R1-A …), which would name the system to a blind reader.
// Judgment turns (the three-round judge, the SAS judge) are left out: the automated judge must
// form its own view, not read another judge's.
import type { RunViewTurn } from '@/lib/report/run-view';
import { reportText } from '@/lib/eval/report-text';

type TurnLike = Pick<RunViewTurn, 'team' | 'act' | 'text' | 'output'> & { status?: string };
type Cite = { source?: string; date?: string; value?: string; verified?: boolean };

function cites(list: unknown): string {
  if (!Array.isArray(list) || list.length === 0) return '';
  const items = (list as Cite[]).map(
    (c) => `${c.source ?? '?'}, ${c.date ?? 'undated'}${c.value ? ` (${c.value})` : ''}${c.verified === false ? ' [unverified]' : ''}`,
  );
  return ` — cites: ${items.join('; ')}`;
}

type Out = Record<string, unknown>;
/** The array under `key` (its items as the caller expects them), or none. */
const list = <T = Out>(o: Out, key: string): T[] => (Array.isArray(o[key]) ? (o[key] as T[]) : []);

export function renderTranscript(turns: readonly TurnLike[]): { text: string; arguments: { id: string; team: string }[] } {
  const blocks: string[] = [];
  const args = new Map<string, string>();
  const named = (id: unknown, team: string) => {
    if (typeof id === 'string' && id && !args.has(id)) args.set(id, team);
  };
  let n = 0;
  for (const turn of turns) {
    if ((turn.status && turn.status !== 'done') || turn.act === 'judgment') continue;
    const o = (turn.output ?? {}) as Out;
    const lines = [`## Turn ${++n} · ${turn.team} side · ${turn.act}`];
    const claims = list(o, 'claims');
    const argumentList = list(o, 'arguments');
    const responses = list(o, 'responses');
    const questions = list(o, 'questions');
    const structured = claims.length + argumentList.length + responses.length + questions.length > 0 || 'finalPosition' in o;
    if (turn.text) lines.push(turn.text);
    for (const c of claims) {
      named(c.id, turn.team);
      lines.push(`- [${String(c.id)}] (${String(c.factor)}, ${String(c.polarity)}) ${String(c.text)}${cites(c.citations)}`);
    }
    for (const a of argumentList) {
      named(a.id, turn.team);
      lines.push(`- [${String(a.id)}] (${String(a.factor)}) ${String(a.claim)} Reasoning: ${String(a.reasoning)}${cites(a.evidence)}`);
    }
    for (const r of responses)
      lines.push(`- answers [${String(r.targetId)}] — ${String(r.kind)}: ${String(r.reasoning)} Follow-up question: ${String(r.followUp)}`);
    for (const q of questions) lines.push(`- question on [${String(q.targetClaimId)}]: ${String(q.text)}`);
    if ('finalPosition' in o) {
      const concessions = list<string>(o, 'concessions');
      const unrebutted = list<string>(o, 'unrebutted');
      if (concessions.length) lines.push(`Concessions: ${concessions.join('; ')}`);
      if (unrebutted.length) lines.push(`Not rebutted: ${unrebutted.join(', ')}`);
      lines.push(`Final position: ${String(o.finalPosition)}`);
    }
    // Reports and briefings without argument lists: show their fields, so nothing is hidden.
    if (!structured) {
      const body = reportText({ ...o, text: undefined }, 'labelled');
      if (body) lines.push(body);
    }
    blocks.push(lines.join('\n'));
  }
  return { text: blocks.join('\n\n'), arguments: [...args].map(([id, team]) => ({ id, team })) };
}
