import type { Role } from '@/lib/db/schema';

/** The demo sign-ins: created by the seed in demo mode, listed on the sign-in page. */
export const DEMO_ACCOUNTS = [
  { email: 'rm@example.com', name: 'Demo RM', role: 'rm' },
  { email: 'committee@example.com', name: 'Demo Committee Member', role: 'committee' },
  { email: 'evaluator@example.com', name: 'Demo Evaluator', role: 'evaluator' },
  { email: 'admin@example.com', name: 'Demo Admin', role: 'admin' },
] as const satisfies readonly { email: string; name: string; role: Role }[];
