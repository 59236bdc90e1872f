'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { importMessages } from '@/lib/i18n/messages/import';
import { importPool } from '@/lib/pool/import';

const list = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]));

// The report can name thousands of rows; the page shows this many and the count of the rest.
const MAX_REPORTED = 500;

export const importFiles = action(
  {
    permission: 'pool:write',
    input: z.object({
      files: list(z.instanceof(File, { error: importMessages.en.chooseFile })),
      // Paths inside a chosen folder (webkitRelativePath), in the order of `files`.
      paths: list(z.string().max(500)).optional(),
      validOnly: z.enum(['true', 'false']).default('false'),
    }),
  },
  async ({ files, paths, validOnly }, user) => {
    if (files.length === 0 || files.every((f) => f.size === 0 && !f.name)) throw new AppError('bad_request', importMessages.en.chooseFile);
    const sources = await Promise.all(
      files.map(async (file, i) => ({ name: paths?.[i] || file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
    );
    const report = await importPool({ db: await getDb(), sources, actorId: user.id, validOnly: validOnly === 'true', label: sources.map((s) => s.name).slice(0, 20).join(', ') });
    if (report.written) revalidatePath('/companies', 'layout');
    return { ...report, rejected: report.rejected.slice(0, MAX_REPORTED), rejectedCount: report.rejected.length };
  },
);
