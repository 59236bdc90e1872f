'use client';

// Never a stack trace: the digest lets an operator find the logged error.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center" role="alert">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        The page could not be shown. Try again; if it keeps happening, give your administrator this reference:{' '}
        <code className="font-mono">{error.digest ?? 'none'}</code>
      </p>
      <button type="button" onClick={reset} className="mt-6 rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800">
        Try again
      </button>
    </main>
  );
}
