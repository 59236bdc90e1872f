import Link from 'next/link';
import { formatNumber } from '@/components/lists/format';
import { DataTable, Td } from '@/components/ui/layout';
import type { CompanyListItem } from '@/lib/domain/views';
import { listsMessages } from '@/lib/i18n/messages/lists';
import { getLocale, getT } from '@/lib/i18n/server';

export async function CompaniesTable({ companies }: { companies: CompanyListItem[] }) {
  const [t, locale] = await Promise.all([getT(listsMessages), getLocale()]);
  const head = [t('colCompany'), t('colCountry'), t('colIndustry'), t('colEvidence'), t('colFactors'), t('colDocuments'), t('colLatest')];
  return (
    <DataTable caption={t('companiesCaption')} head={head}>
      {companies.map((c) => {
        // The English name leads in English (it is what the link is known by); the registered name in Korean.
        const primary = locale === 'ko' ? c.name : (c.nameEn ?? c.name);
        const secondary = locale === 'ko' ? c.nameEn : c.name;
        return (
          <tr key={c.id} data-testid="company-row">
            <Td className="font-medium">
              <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${c.id}`}>
                {primary}
              </Link>
              {secondary && secondary !== primary ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{secondary}</span> : null}
            </Td>
            <Td>{c.country}</Td>
            <Td className="max-w-xs text-zinc-700 dark:text-zinc-300">{c.industry ?? '—'}</Td>
            <Td>{formatNumber(c.evidenceCount, locale)}</Td>
            <Td>{t('factorsOfTen', { n: c.factorCount })}</Td>
            <Td>{formatNumber(c.documentCount, locale)}</Td>
            <Td>{c.latestPublished ?? '—'}</Td>
          </tr>
        );
      })}
    </DataTable>
  );
}
