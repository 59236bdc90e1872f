// Runs once when the server starts: stamps each request with its connection's address, and opens
// (migrates, and on a new embedded folder seeds) the database before the first request, and stops
// with a clear message if it cannot.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, so that requests carry their connection's address (lib/auth/peer-address.ts).
  const { installPeerAddressHeader } = await import('@/lib/auth/peer-address');
  installPeerAddressHeader();
  const { startUp } = await import('@/lib/startup');
  await startUp();
}
