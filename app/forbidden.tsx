import Link from 'next/link';

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center" data-testid="forbidden">
      <p className="text-sm font-semibold text-red-700 dark:text-red-400">403</p>
      <h1 className="mt-2 text-2xl font-semibold">You don’t have access to this page</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">Your role does not include it. If you need it, ask an administrator.</p>
      <Link className="mt-6 inline-block text-blue-800 underline dark:text-blue-300" href="/">
        Go to your home page
      </Link>
    </main>
  );
}
