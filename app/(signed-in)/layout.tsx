import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';

// Every page below needs a session; route groups inside split the pages by audience.
export default function SignedInLayout({ children }: { children: ReactNode }) {
  return <AppShell>{children}</AppShell>;
}
