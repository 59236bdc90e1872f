// The one wrapper every server action uses. Server actions are public HTTP endpoints, so each
// call re-checks the session, the role and (when given) ownership on the server, validates
// its input with zod, and answers with a typed result instead of throwing at the client. Every
// refusal (unauthorized, forbidden) is written to the audit log (lib/auth/refusal-audit.ts).
// Before any schema sees it, the input goes through the rule for typed text
// (lib/domain/typed-text.ts): a NUL or half of a surrogate pair is a field error under its
// field, and bidirectional controls are removed, so no form can forget either.
import { headers } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { z } from 'zod';
import { fieldErrorsOf } from '@/lib/auth/field-errors';
import { cleanTypedInput, type TypedTextProblem } from '@/lib/domain/typed-text';
import { can, type Permission } from '@/lib/auth/permissions';
import { auditRefusal, pathOf } from '@/lib/auth/refusal-audit';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError, type ErrorCode, type FieldErrors } from '@/lib/errors';
import { DEFAULT_LOCALE, isSaid, phraseText, say, sayText, type Dictionary, type Locale, type Messages, type Phrase, type Said } from '@/lib/i18n';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { getLocale } from '@/lib/i18n/server';
import { log } from '@/lib/ops/log';

/**
 * What the form shows: its data, or the error's message in the reader's language. A field error
 * is a key of the form's table (the form translates it) or text already in the reader's language.
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

type ActionConfig<S extends z.ZodType> = {
  /** The permission from lib/auth/permissions.ts; `public` only for signing in. */
  permission: Permission | 'public';
  input: S;
  /** Fields taken exactly as typed, outside the typed-text rule: passwords, which are hashed and never stored as text. */
  verbatim?: readonly string[];
  /** Tables of the phrases its input's checks and its field errors give without a table (FieldError). */
  messages?: Messages<Dictionary>[];
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

/** A field's unstorable character, said in the reader's language like any field error. */
function typedTextErrors(problems: Record<string, TypedTextProblem[]>): FieldErrors {
  return Object.fromEntries(
    Object.entries(problems).map(([field, list]) => [
      field,
      list.map((p) => (p.kind === 'nul' ? say(errorMessages, 'typedNul', { at: p.at }) : say(errorMessages, 'typedBrokenChar', { code: p.code, at: p.at }))),
    ]),
  );
}

/** The reader's interface language; English outside a request (a test or a script). */
async function readerLocale(): Promise<Locale> {
  try {
    return await getLocale();
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** A failure for the form: phrases in the reader's language, by their keys (never by their English). */
async function fail(code: ErrorCode, message: string | Said = say(errorMessages, code), fieldErrors?: FieldErrors, tables: Messages<Dictionary>[] = []) {
  const locale = await readerLocale();
  const text = (m: string | Phrase | Said) => (isSaid(m) ? sayText(m, locale) : typeof m === 'string' ? m : phraseText(tables, locale, m));
  const fields = fieldErrors && Object.fromEntries(Object.entries(fieldErrors).map(([field, errors]) => [field, errors.map(text)]));
  return { ok: false as const, code, message: text(message), ...(fields ? { fieldErrors: fields } : {}) };
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
    const refuse = async (code: 'unauthorized' | 'forbidden', message?: string | Said, reason?: string) => {
      await auditRefusal({ via: 'action', code, actorId: user?.id ?? null, permission: config.permission, path: await callerPath(), reason });
      return await fail(code, message ?? say(errorMessages, code));
    };
    try {
      user = await getSessionUser();
      if (config.permission !== 'public') {
        if (!user) return await refuse('unauthorized');
        if (!can(user.role, config.permission)) return await refuse('forbidden');
      }
      const typed = cleanTypedInput(raw instanceof FormData ? formDataToObject(raw) : raw, config.verbatim ?? []);
      const parsed = config.input.safeParse(typed.value);
      if (typed.problems || !parsed.success) {
        // Every problem of the form at once; a field with a character the database cannot store says that.
        const fieldErrors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...(typed.problems ? typedTextErrors(typed.problems) : {}) };
        return await fail('bad_request', say(errorMessages, 'bad_request'), fieldErrors, config.messages);
      }
      if (config.authorize && (!user || !(await config.authorize(parsed.data, user)))) return await refuse('forbidden', undefined, 'ownership');
      return { ok: true, data: await handler(parsed.data, user as U) };
    } catch (err) {
      unstable_rethrow(err);
      if (err instanceof AppError) {
        // An ownership or state check in the handler that refused: audited like the role check.
        // Not from a public action: that is a failed sign-in, which lib/auth/credentials.ts audits.
        if ((err.code === 'forbidden' || err.code === 'unauthorized') && config.permission !== 'public')
          return await refuse(err.code, err.said ?? err.message, err.message);
        return await fail(err.code, err.said ?? err.message, err.fieldErrors, config.messages);
      }
      const ref = crypto.randomUUID().slice(0, 8);
      log.error('server action failed', { component: 'action', ref, err });
      return await fail('internal', say(errorMessages, 'internalWithReference', { ref }));
    }
  };
}
