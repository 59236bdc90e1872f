// The route-handler twin of lib/auth/action.ts: the same session, role and input checks,
// answering with JSON and the status of lib/errors.ts instead of a typed action result.
import { can, type Permission } from '@/lib/auth/permissions';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError, defaultMessage, ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { log } from '@/lib/ops/log';

function errorResponse(code: ErrorCode, message = defaultMessage(code)) {
  return Response.json({ code, message }, { status: ERROR_STATUS[code] });
}

export function route<C>(permission: Permission, handler: (request: Request, user: SessionUser, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      const user = await getSessionUser();
      if (!user) return errorResponse('unauthorized');
      if (!can(user.role, permission)) return errorResponse('forbidden');
      return await handler(request, user, context);
    } catch (err) {
      if (err instanceof AppError) return errorResponse(err.code, err.message);
      const ref = crypto.randomUUID().slice(0, 8);
      log.error('route handler failed', { component: 'route', method: request.method, path: new URL(request.url).pathname, ref, err });
      return errorResponse('internal', `${defaultMessage('internal')} (reference ${ref})`);
    }
  };
}
