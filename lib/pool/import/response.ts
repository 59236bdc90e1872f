// What POST /api/import answers to an upload it has read (app/api/import/route.ts), as the Import
// page's form reads it: the import's report, its rejections cut to a page's worth. Types only,
// apart from limits.ts so that module stays free of the import itself.
import type { ImportReport } from '@/lib/pool/import';

export type ImportResponse = ImportReport & { rejectedCount: number };
