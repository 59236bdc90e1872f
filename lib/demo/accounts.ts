// The demo sign-ins: created by the demo seed (lib/demo/seed.ts) and by start-up on PostgreSQL
// with DEMO=1 (lib/startup.ts), and listed on the sign-in page. Pure data.
import type { Role } from '@/lib/domain/vocabulary';

export const DEMO_ACCOUNTS = [
  { email: 'rm@example.com', name: 'Demo RM', role: 'rm' },
  { email: 'committee@example.com', name: 'Demo Committee Member', role: 'committee' },
  { email: 'evaluator@example.com', name: 'Demo Evaluator', role: 'evaluator' },
  { email: 'admin@example.com', name: 'Demo Admin', role: 'admin' },
] as const satisfies readonly { email: string; name: string; role: Role }[];

/**
 * Where the operator finds the demo accounts' password, for the lines the CLI and start-up print:
 * the default itself when DEMO_PASSWORD is unset (saying "set by DEMO_PASSWORD" sent people
 * looking for a variable nobody had set), and the variable's name, never its value, when it is set.
 */
export function demoPasswordNote(password: string, defaultPassword: string): string {
  return password === defaultPassword ? `password: ${defaultPassword}` : 'password: the value of DEMO_PASSWORD in this environment';
}
