// The route-handler twin of lib/auth/action.ts: the same session, role and input checks,
// answering with JSON and the status of lib/errors.ts instead of a typed action result. Every
// refusal (unauthorized, forbidden) is written to the audit log (lib/auth/refusal-audit.ts).
import { can, type Permission } from '@/lib/auth/permissions';
import { auditRefusal, pathOf } from '@/lib/auth/refusal-audit';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError, defaultMessage, ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { say, sayText, type Said } from '@/lib/i18n';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { log } from '@/lib/ops/log';

/** The error in English, and when it was said as a phrase, its key and values for a page to translate. */
function errorResponse(code: ErrorCode, message?: string, said: Said | undefined = message === undefined ? say(errorMessages, code) : undefined) {
  const phrase = said && { key: said.key, ...(said.values ? { values: said.values } : {}) };
  return Response.json({ code, message: message ?? defaultMessage(code), ...(phrase ? { phrase } : {}) }, { status: ERROR_STATUS[code] });
}

export function route<C>(permission: Permission, handler: (request: Request, user: SessionUser, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    let user: SessionUser | null = null;
    const refuse = async (code: 'unauthorized' | 'forbidden', message?: string, said?: Said) => {
      await auditRefusal({ via: 'route', code, actorId: user?.id ?? null, permission, path: pathOf(request.url), method: request.method, reason: message });
      return errorResponse(code, message, said ?? (message === undefined ? say(errorMessages, code) : undefined));
    };
    try {
      user = await getSessionUser();
      if (!user) return await refuse('unauthorized');
      if (!can(user.role, permission)) return await refuse('forbidden');
      return await handler(request, user, context);
    } catch (err) {
      if (err instanceof AppError) {
        // An ownership or state check in the handler that refused: audited like the role check.
        if (err.code === 'forbidden' || err.code === 'unauthorized') return await refuse(err.code, err.message, err.said);
        return errorResponse(err.code, err.message, err.said);
      }
      const ref = crypto.randomUUID().slice(0, 8);
      log.error('route handler failed', { component: 'route', method: request.method, path: new URL(request.url).pathname, ref, err });
      const said = say(errorMessages, 'internalWithReference', { ref });
      return errorResponse('internal', sayText(said), said);
    }
  };
}
