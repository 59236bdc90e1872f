// Runs once when the server starts: opens (migrates, and on a new embedded folder seeds) the
// database before the first request, and stops with a clear message if it cannot.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startUp } = await import('@/lib/startup');
  await startUp();
}
