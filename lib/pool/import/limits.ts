// The import's size limits, from the one setting IMPORT_MAX_FILE_MB (lib/env.ts): each file up to
// it, one upload up to twice it, so a folder of several large files still fits. Pure and free of
// server modules, so the Import page's form checks the same numbers before it sends anything.

export const MB = 1024 * 1024;

export type ImportLimits = { maxFileMb: number; maxRequestMb: number; maxFileBytes: number; maxRequestBytes: number };

export function importLimitsFor(maxFileMb: number): ImportLimits {
  const maxRequestMb = 2 * maxFileMb;
  return { maxFileMb, maxRequestMb, maxFileBytes: Math.floor(maxFileMb * MB), maxRequestBytes: Math.floor(maxRequestMb * MB) };
}

/** Bytes as megabytes with one decimal, rounded up: 10,485,761 bytes is "10.1 MB", never "10 MB". */
export const formatMb = (bytes: number) => `${(Math.ceil((bytes / MB) * 10) / 10).toLocaleString('en')} MB`;
