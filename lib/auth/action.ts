// The one wrapper every server action uses. Server actions are public HTTP endpoints, so each
// call re-checks the session, the role and (when given) ownership on the server, validates
// its input with zod, and answers with a typed result instead of throwing at the client. Every
// refusal (unauthorized, forbidden) is written to the audit log (lib/auth/refusal-audit.ts).
import { headers } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { z } from 'zod';
import { fieldErrorsOf } from '@/lib/auth/field-errors';
import { can, type Permission } from '@/lib/auth/permissions';
import { auditRefusal, pathOf } from '@/lib/auth/refusal-audit';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError, defaultMessage, type ErrorCode } from '@/lib/errors';
import { log } from '@/lib/ops/log';

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

type ActionConfig<S extends z.ZodType> = {
  /** The permission from lib/auth/permissions.ts; `public` only for signing in. */
  permission: Permission | 'public';
  input: S;
  /** Ownership or state checks that need the parsed input; false → forbidden. */
  authorize?: (input: z.output<S>, user: SessionUser) => Promise<boolean> | boolean;
};

/** FormData to a plain object; repeated keys become arrays. Files are kept as they are. */
function formDataToObject(form: FormData) {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith('$ACTION')) continue;
    const values = form.getAll(key);
    out[key] = values.length > 1 ? values : values[0];
  }
  return out;
}

function fail(code: ErrorCode, message = defaultMessage(code), fieldErrors?: Record<string, string[]>) {
  return { ok: false as const, code, message, ...(fieldErrors ? { fieldErrors } : {}) };
}

/** The page the action was called from (its Referer), for the audit entry of a refusal. */
async function callerPath() {
  try {
    return pathOf((await headers()).get('referer'));
  } catch {
    return null; // Outside a request: a test or a script.
  }
}

export function action<S extends z.ZodType, T, U extends SessionUser | null = SessionUser>(
  config: ActionConfig<S>,
  handler: (input: z.output<S>, user: U) => Promise<T>,
) {
  return async (raw: FormData | z.input<S>): Promise<ActionResult<T>> => {
    let user: SessionUser | null = null;
    const refuse = async (code: 'unauthorized' | 'forbidden', message?: string, reason?: string) => {
      await auditRefusal({ via: 'action', code, actorId: user?.id ?? null, permission: config.permission, path: await callerPath(), reason });
      return fail(code, message);
    };
    try {
      user = await getSessionUser();
      if (config.permission !== 'public') {
        if (!user) return await refuse('unauthorized');
        if (!can(user.role, config.permission)) return await refuse('forbidden');
      }
      const parsed = config.input.safeParse(raw instanceof FormData ? formDataToObject(raw) : raw);
      if (!parsed.success) {
        return fail('bad_request', defaultMessage('bad_request'), fieldErrorsOf(parsed.error));
      }
      if (config.authorize && (!user || !(await config.authorize(parsed.data, user)))) return await refuse('forbidden', undefined, 'ownership');
      return { ok: true, data: await handler(parsed.data, user as U) };
    } catch (err) {
      unstable_rethrow(err);
      if (err instanceof AppError) {
        // An ownership or state check in the handler that refused: audited like the role check.
        // Not from a public action: that is a failed sign-in, which lib/auth/credentials.ts audits.
        if ((err.code === 'forbidden' || err.code === 'unauthorized') && config.permission !== 'public') return await refuse(err.code, err.message, err.message);
        return fail(err.code, err.message, err.fieldErrors);
      }
      const ref = crypto.randomUUID().slice(0, 8);
      log.error('server action failed', { component: 'action', ref, err });
      return fail('internal', `${defaultMessage('internal')} (reference ${ref})`);
    }
  };
}
