// Constructive speeches and openings (KPD-MADS D1 and D3, SAS O-A and O-N): one core claim
// and a signal per factor, each with its citation, assumption and what would refute it.
import type { Turn } from '@/lib/domain/outputs';
import { claimFromPick, sideOf, type Env } from './env';
import { shortSource } from './material';
import { selectSignals, type Pick, type Side } from './select';
import { fit, type Segment } from './text';

export function constructive(env: Env): Turn {
  const { step, P, pool, debate } = env;
  const side: Side = sideOf(step) ?? 'favorable';
  const versus = step.rules?.freshFactorsVersus ?? [];
  const exclude = new Set(versus.flatMap((id) => debate.get(id)?.claims.map((c) => c.factor) ?? []));
  const count = Math.max(3, step.rules?.minClaims ?? 3);
  const selection = selectSignals(pool, { side, count, exclude, allowCrossed: exclude.size > 0 });
  const picks = selection.picks;
  const claims = picks.map((p, i) => claimFromPick(env, `${step.id}-c${i + 1}`, p, side));

  const falsifiers = uniqueByFactor(picks).map((p) => ({ factor: p.item.factor, falsifier: falsifierOf(env, p, side) }));
  const falsifiability = picks.length
    ? P.falsifiability(falsifiers)
    : P.thinNote({ given: pool.given, found: 0, wanted: count, factors: 0, side, reread: false });

  const segments: Segment[] = [{ text: P.core(env.company, side), priority: 10 }];
  const crossed = labelsOf(
    env,
    picks.filter((p) => p.mode === 'crossed'),
  );
  const short = picks.length < count;
  if (selection.thin && (!crossed.length || short)) {
    segments.push({
      text: P.thinNote({
        given: pool.given,
        found: picks.length,
        wanted: count,
        factors: new Set(picks.map((p) => p.item.factor)).size,
        side,
        reread: picks.some((p) => p.mode === 'reread'),
      }),
      priority: 9,
    });
  }
  if (crossed.length) segments.push({ text: P.crossedNote(crossed, !short), priority: 9 });
  else if (exclude.size && versus.length)
    segments.push({
      text: P.freshNote(
        versus.join(', '),
        [...exclude].map((f) => P.label(f)),
      ),
      priority: 3,
    });
  const sources = new Set(picks.map((p) => shortSource(p.item.source)));
  const bare = picks.length > 1 && sources.size === 1;
  if (bare) segments.push({ text: P.sourceNote([...sources][0]), priority: 8.5, join: 'line' });
  picks.forEach((p, i) => {
    segments.push({ text: P.line(i, p, i > 0 && picks[i - 1].item.factor === p.item.factor, bare), priority: 8, join: 'line' });
    segments.push({ text: P.reading(p, side, env.words(p.item.factor, p.item)), priority: 1 });
  });
  const reused = labelsOf(
    env,
    picks.filter((p) => p.mode === 'reuse'),
  );
  if (reused.length && !selection.thin)
    segments.push({
      text: P.reuseNote(reused, Math.max(2, ...reused.map((l) => picks.filter((p) => env.P.label(p.item.factor) === l).length))),
      priority: 6,
      join: 'line',
    });
  const stale = picks.filter((p) => p.item.stale).length;
  if (stale) segments.push({ text: P.staleNote(stale, pool.recencyDays), priority: 6, join: 'line' });
  if (!picks.length) return { text: fit(segments, step.maxChars), claims, questions: [], falsifiability };
  const assumptions = [...new Set(claims.flatMap((c) => (c.assumptions?.[0] ?? '').split(/(?<=[.다])\s+/)).filter(Boolean))];
  segments.push({ text: P.assumptionsLine(assumptions), priority: 2, join: 'line' });
  // The speech must say what would refute it: if the full list does not fit, name fewer.
  let text = '';
  for (let n = falsifiers.length; n >= 1; n--) {
    const line = P.falsifiability(falsifiers.slice(0, n));
    text = fit([...segments, { text: line, priority: 7.5, join: 'line' }], step.maxChars);
    if (text.includes(line)) break;
  }
  return { text, claims, questions: [], falsifiability };
}

function falsifierOf(env: Env, pick: Pick, side: Side): string {
  const w = env.words(pick.item.factor, pick.item);
  return side === 'favorable' ? w.favFalsifier : w.advFalsifier;
}

function uniqueByFactor(picks: Pick[]): Pick[] {
  return picks.filter((p, i) => picks.findIndex((q) => q.item.factor === p.item.factor) === i);
}

function labelsOf(env: Env, picks: Pick[]): string[] {
  return [...new Set(picks.map((p) => env.P.label(p.item.factor)))];
}
