import type { JsonObject } from '../model/json.js';
import { CURRENT_POLICY_VERSION } from '../model/policy.js';

/** Rewrites a policy document of version `from` into version `from + 1`. */
export type PolicyMigration = (document: JsonObject) => JsonObject;

/**
 * Migrations by the version they start from. Version 1 is the first policy format, so there is
 * none yet; when version 2 arrives, `1: (v1) => v2` goes here and old files keep loading.
 */
export const POLICY_MIGRATIONS: Readonly<Record<number, PolicyMigration>> = {};

/** Brings a document of an older version up to the current one, one step at a time. */
export function migratePolicy(
  document: JsonObject,
  from: number,
  migrations: Readonly<Record<number, PolicyMigration>> = POLICY_MIGRATIONS,
  to: number = CURRENT_POLICY_VERSION,
): JsonObject {
  let migrated = document;
  for (let version = from; version < to; version++) {
    const step = migrations[version];
    if (step === undefined) {
      throw new Error(`no migration from policy version ${version} to ${version + 1}`);
    }
    migrated = { ...step(migrated), version: version + 1 };
  }
  return migrated;
}
