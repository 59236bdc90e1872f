// A literal string as a regular expression that matches exactly it.

/** `s` with every character a regular expression gives a meaning to escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
