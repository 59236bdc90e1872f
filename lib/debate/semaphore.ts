// The model providers' limits: one semaphore per provider and model, per process.
import { Semaphore } from '@/lib/util/semaphore';

const globalForLimits = globalThis as typeof globalThis & { __crosscheckProviderLimits?: Map<string, Semaphore> };

/** One limit per provider and model for the whole process, shared by every run. */
export function providerLimit(key: string, limit: number) {
  globalForLimits.__crosscheckProviderLimits ??= new Map();
  let s = globalForLimits.__crosscheckProviderLimits.get(key);
  if (!s) globalForLimits.__crosscheckProviderLimits.set(key, (s = new Semaphore(limit)));
  return s;
}
