// Factor coverage of two runs: which guideline factors each one argued, with pro/con counts
// and branch depth, and a plain-word "covered by" column so gaps do not depend on colour.
import { DataTable, Td } from '@/components/ui/layout';
import type { RunComparison } from '@/lib/eval/compare';
import { getLocale, getT } from '@/lib/i18n/server';
import { compareMessages } from '@/lib/i18n/messages/compare';
import { getFactor } from '@/lib/domain/factors';

export async function CompareFactors({ comparison }: { comparison: RunComparison }) {
  const t = await getT(compareMessages);
  const locale = await getLocale();
  const cell = (side: { covered: boolean; favorable: number; adverse: number }) =>
    side.covered ? t('proCon', { fav: side.favorable, adv: side.adverse }) : t('notAvailable');
  return (
    <DataTable caption={t('coverageCaption')} head={[t('factor'), t('proConA'), t('depthA'), t('proConB'), t('depthB'), t('coveredBy')]}>
      {comparison.factors.map((row) => {
        const factor = getFactor(row.factor);
        const gap = row.coveredBy !== 'both';
        return (
          <tr key={row.factor} data-testid={`coverage-${row.factor}`}>
            <th scope="row" className="px-4 py-2 text-left align-top font-medium">
              {locale === 'ko' ? factor.labelKo : factor.label}
            </th>
            <Td className="tabular-nums">{cell(row.a)}</Td>
            <Td className="tabular-nums">{row.a.depth ?? t('notAvailable')}</Td>
            <Td className="tabular-nums">{cell(row.b)}</Td>
            <Td className="tabular-nums">{row.b.depth ?? t('notAvailable')}</Td>
            <Td className={gap ? 'font-semibold' : ''}>
              {gap ? <span aria-hidden="true">⚠ </span> : null}
              {t(`covered_${row.coveredBy}`)}
            </Td>
          </tr>
        );
      })}
    </DataTable>
  );
}
