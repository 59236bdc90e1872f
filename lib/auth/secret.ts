import { resolveAuthSecret } from '@/lib/db/data-dir';

let secret: string | undefined;

/** The session-signing secret, resolved once per process (env, or the data folder's). */
export function authSecret() {
  secret ??= resolveAuthSecret();
  return secret;
}
