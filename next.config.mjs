// The App Router streams its hydration data as inline <script> tags (self.__next_f.push(...)),
// so script-src needs 'unsafe-inline' unless every response carries a per-request nonce. Nonces
// mean a proxy.ts that rewrites headers on every request and forces all pages to render
// dynamically; that is the better policy and left for later. Everything else is locked to our
// own origin: no third-party scripts, frames, plugins or form targets, and no framing by others.
// The SSE transcript (/api/runs/[id]/events) and the exports are same-origin, so connect-src
// 'self' covers them. `next dev` also needs 'unsafe-eval' (React's dev tooling evaluates code);
// production never gets it.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'" + (process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : ''),
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WASM and data files from its own package folder at run time;
  // bundling it would break those paths.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss'],
  poweredByHeader: false,
  // `npm test` typechecks the whole project (tsc --noEmit) before it builds; checking again
  // inside every build only doubles the time.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // forbidden() renders app/forbidden.tsx with a real 403 status.
    authInterrupts: true,
    // Imports do not go through a server action but POST /api/import, which reads the body under
    // IMPORT_MAX_FILE_MB itself (lib/pool/import/upload.ts). Actions carry forms: 2 MB is ample,
    // and Next.js reads an action's body before the action can check who sent it.
    serverActions: { bodySizeLimit: '2mb' },
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
          { key: 'Content-Security-Policy', value: CONTENT_SECURITY_POLICY },
        ],
      },
    ];
  },
};

export default nextConfig;
