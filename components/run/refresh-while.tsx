'use client';
// Re-renders the server page every few seconds while `active`: the stability view of a set
// (docs/stability.md) shows its figures once its runs have ended, without a reload by hand.
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

export function RefreshWhile({ active, everyMs = 2000 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, router]);
  return null;
}
