import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DocumentReader } from '@/components/pool/document-reader';
import { PageHeader } from '@/components/ui/layout';
import { requireCompanyAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { getCompanyById, getDocument } from '@/lib/db/queries/companies';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getLocale, getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(poolMessages))('document') };
}

export default async function DocumentPage({ params }: { params: Promise<{ id: string; documentId: string }> }) {
  const { id, documentId } = await params;
  await requireCompanyAccess(id);
  const [t, locale] = await Promise.all([getT(poolMessages), getLocale()]);
  const db = await getDb();
  const [company, doc] = await Promise.all([getCompanyById({ db, id }), getDocument({ db, companyId: id, id: decodeURIComponent(documentId) })]);
  if (!company || !doc) notFound();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${company.id}`}>
          ← {locale === 'ko' ? company.name : (company.nameEn ?? company.name)}
        </Link>
      </p>
      <PageHeader
        title={doc.title}
        description={
          <>
            {doc.kind.replaceAll('_', ' ')} · {t('published', { date: doc.publishedDate })} ·{' '}
            <a className="text-blue-800 underline dark:text-blue-300" href={doc.sourceUrl} target="_blank" rel="noreferrer noopener">
              {doc.sourceName}
            </a>
            {doc.license ? <span className="block text-xs">{t('licence', { license: doc.license })}</span> : null}
          </>
        }
      />
      <DocumentReader body={doc.body} />
    </>
  );
}
