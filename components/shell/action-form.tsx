'use client';

import type { ReactNode } from 'react';

/** A form posting to a server action whose result the page does not show (sign-out, SSO). */
export function ActionForm({ action, children, className }: { action: (form: FormData) => Promise<unknown>; children: ReactNode; className?: string }) {
  return (
    <form
      className={className}
      action={async (form) => {
        await action(form);
      }}
    >
      {children}
    </form>
  );
}
