// The route-handler twin of lib/auth/action.ts: the same session, role and input checks,
// answering with JSON and the status of lib/errors.ts instead of a typed action result. Every
// refusal (unauthorized, forbidden) is written to the audit log (lib/auth/refusal-audit.ts).
import { can, type Permission } from '@/lib/auth/permissions';
import { auditRefusal, pathOf } from '@/lib/auth/refusal-audit';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError, defaultMessage, ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { log } from '@/lib/ops/log';

function errorResponse(code: ErrorCode, message = defaultMessage(code)) {
  return Response.json({ code, message }, { status: ERROR_STATUS[code] });
}

export function route<C>(permission: Permission, handler: (request: Request, user: SessionUser, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    let user: SessionUser | null = null;
    const refuse = async (code: 'unauthorized' | 'forbidden', message?: string) => {
      await auditRefusal({ via: 'route', code, actorId: user?.id ?? null, permission, path: pathOf(request.url), method: request.method, reason: message });
      return errorResponse(code, message);
    };
    try {
      user = await getSessionUser();
      if (!user) return await refuse('unauthorized');
      if (!can(user.role, permission)) return await refuse('forbidden');
      return await handler(request, user, context);
    } catch (err) {
      if (err instanceof AppError) {
        // An ownership or state check in the handler that refused: audited like the role check.
        if (err.code === 'forbidden' || err.code === 'unauthorized') return await refuse(err.code, err.message);
        return errorResponse(err.code, err.message);
      }
      const ref = crypto.randomUUID().slice(0, 8);
      log.error('route handler failed', { component: 'route', method: request.method, path: new URL(request.url).pathname, ref, err });
      return errorResponse('internal', `${defaultMessage('internal')} (reference ${ref})`);
    }
  };
}
