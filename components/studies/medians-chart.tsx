// Grouped bars of the medians per measure and system, as inline SVG (no chart library). The
// numbers are in the table next to it; the SVG has a title and each bar an aria label.
export type ChartGroup = { label: string; bars: { system: string; value: number | null; color: string }[] };

const W = 360;
const H = 200;
const PAD = { top: 16, right: 8, bottom: 40, left: 32 };

export function MediansChart({ title, groups, max, ticks, testId }: { title: string; groups: ChartGroup[]; max: number; ticks: number[]; testId: string }) {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const groupW = plotW / Math.max(groups.length, 1);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  return (
    <figure className="space-y-1" data-testid={testId}>
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="w-full max-w-md text-zinc-800 dark:text-zinc-200" role="img" aria-labelledby={`${testId}-title`}>
        <title id={`${testId}-title`}>{title}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-zinc-300 dark:stroke-zinc-700" strokeWidth={1} />
            <text x={PAD.left - 4} y={y(tick) + 4} textAnchor="end" fontSize={10} fill="currentColor">
              {tick}
            </text>
          </g>
        ))}
        {groups.map((g, gi) => {
          const barW = (groupW * 0.7) / Math.max(g.bars.length, 1);
          const x0 = PAD.left + gi * groupW + groupW * 0.15;
          return (
            <g key={g.label}>
              {g.bars.map((b, bi) => (
                <rect
                  key={b.system}
                  x={x0 + bi * barW}
                  y={b.value === null ? y(0) : y(b.value)}
                  width={barW - 2}
                  height={b.value === null ? 0 : plotH - (y(b.value) - PAD.top)}
                  fill={b.color}
                  role="img"
                  aria-label={`${g.label}, ${b.system}: ${b.value ?? '—'}`}
                  data-testid="chart-bar"
                >
                  <title>{`${g.label}, ${b.system}: ${b.value ?? '—'}`}</title>
                </rect>
              ))}
              <text x={PAD.left + gi * groupW + groupW / 2} y={H - PAD.bottom + 14} textAnchor="middle" fontSize={10} fill="currentColor">
                {g.label.length > 24 ? `${g.label.slice(0, 22)}…` : g.label}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** Bar colours per system, dark enough for 3:1 against white and light enough against zinc-950. */
export const SYSTEM_COLORS = ['#1d4ed8', '#c2410c', '#15803d', '#7e22ce', '#a16207'];

export function ChartLegend({ systems }: { systems: string[] }) {
  return (
    <ul className="flex flex-wrap gap-4 text-sm" aria-hidden="true">
      {systems.map((s, i) => (
        <li key={s} className="flex items-center gap-2">
          <span className="inline-block h-3 w-3 rounded-sm" style={{ background: SYSTEM_COLORS[i % SYSTEM_COLORS.length] }} />
          {s}
        </li>
      ))}
    </ul>
  );
}
