// The demo sign-ins: created by the demo seed (lib/demo/seed.ts) and by start-up on PostgreSQL
// with DEMO=1 (lib/startup.ts), and listed on the sign-in page. Pure data.
import type { Role } from '@/lib/domain/vocabulary';

export const DEMO_ACCOUNTS = [
  { email: 'rm@example.com', name: 'Demo RM', role: 'rm' },
  { email: 'committee@example.com', name: 'Demo Committee Member', role: 'committee' },
  { email: 'evaluator@example.com', name: 'Demo Evaluator', role: 'evaluator' },
  { email: 'admin@example.com', name: 'Demo Admin', role: 'admin' },
] as const satisfies readonly { email: string; name: string; role: Role }[];
