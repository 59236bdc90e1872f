// Audit entries for refused attempts: a server action or route handler that answered
// unauthorized or forbidden (lib/auth/action.ts, lib/auth/route.ts). One entry per refusal, with
// the actor when known, the permission and the path; every field is bounded so a crafted request
// cannot write a large entry. A failure to record is logged and never changes the answer, which
// is a refusal either way.
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { log } from '@/lib/ops/log';

const MAX_CHARS = 200;

/** At most MAX_CHARS characters (whole code points), with an ellipsis when cut. */
export function clip(value: string | null | undefined): string | null {
  if (value == null) return null;
  const chars = [...value];
  return chars.length > MAX_CHARS ? `${chars.slice(0, MAX_CHARS - 1).join('')}…` : value;
}

/** The path of a URL, or null when there is none to read. */
export function pathOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return clip(new URL(url, 'http://localhost').pathname);
  } catch {
    return null;
  }
}

export type Refusal = {
  via: 'action' | 'route';
  code: 'unauthorized' | 'forbidden';
  actorId: string | null;
  permission: string;
  path: string | null;
  method?: string;
  /** Why, when it was more than the role: the message of an ownership or state check. */
  reason?: string;
};

export async function auditRefusal(refusal: Refusal) {
  const detail = {
    via: refusal.via,
    code: refusal.code,
    path: clip(refusal.path),
    ...(refusal.method ? { method: clip(refusal.method) } : {}),
    ...(refusal.reason ? { reason: clip(refusal.reason) } : {}),
  };
  try {
    const db = await getDb();
    await db.transaction((tx) =>
      appendAudit({ tx, actorId: refusal.actorId, action: 'access.denied', entityType: 'permission', entityId: clip(refusal.permission), detail }),
    );
  } catch (err) {
    log.error('could not audit a refused attempt', { component: 'audit', permission: refusal.permission, err });
  }
}
