import { readFileSync } from 'node:fs';

/** Set by the bundler (scripts/build-action.mjs); absent when running the compiled sources. */
declare const AUREUS_BUNDLED_VERSION: string | undefined;

/** AUREUS's own version, for reports and the ledger. */
export function toolVersion(): string {
  if (typeof AUREUS_BUNDLED_VERSION === 'string') return AUREUS_BUNDLED_VERSION;
  const manifest: unknown = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  );
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';
}
