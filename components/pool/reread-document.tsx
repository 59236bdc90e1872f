'use client';

// "Read it again with the model" on an uploaded document whose model reading failed or was stopped
// by a restart: the server checks the reading's state under a lock and starts one new reading.
import { rereadDocument } from '@/app/(signed-in)/(workspace)/companies/[id]/documents/[documentId]/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { documentMessages } from '@/lib/i18n/messages/documents';

export function RereadDocument({ documentId }: { documentId: string }) {
  const t = useT(documentMessages);
  const [state, reread, pending] = useActionForm(rereadDocument);
  return (
    <form action={reread} className="mt-2 space-y-2" data-testid="reread-form">
      <input type="hidden" name="document_id" value={documentId} />
      {state?.ok ? null : (
        <Button type="submit" disabled={pending} data-testid="reread-document">
          {t('reread')}
        </Button>
      )}
      <ActionOutcome state={state} success={t('rereadStarted')} messages={[documentMessages as Messages<Dictionary>]} />
    </form>
  );
}
