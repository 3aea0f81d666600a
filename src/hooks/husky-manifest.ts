import { AureusError } from '../model/errors.js';
import { isRecord } from '../model/json.js';

/** The husky AUREUS's hooks are written for: v9 runs `.husky/<hook>` with `sh -e`. */
export const HUSKY_VERSION = '^9.1.7';

export interface ManifestEdit {
  readonly text: string;
  /** What changed, for the user: `devDependencies.husky ^9.1.7`, `scripts.prepare`. */
  readonly changes: readonly string[];
}

/**
 * package.json with husky as a development dependency and husky's setup in `prepare`, which npm
 * runs after every install. An existing `prepare` keeps running first (`build && husky`); one that
 * already runs husky, and a husky already declared in any version, are left alone. The file keeps
 * its indentation and final newline, its keys their order.
 *
 * `prepareCommand` is `husky` at the git root, `cd ../.. && husky` in a sub-package: husky only
 * sets itself up from the folder that holds `.git`.
 */
export function addHusky(text: string, file: string, prepareCommand: string): ManifestEdit {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new AureusError(
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
      `fix ${file}, then run aureus hooks install again.`,
    );
  }
  if (!isRecord(manifest))
    throw new AureusError(`${file} does not hold a JSON object.`, `fix ${file}.`);
  const changes: string[] = [];
  const declared = [manifest.dependencies, manifest.devDependencies].some(
    (deps) => isRecord(deps) && 'husky' in deps,
  );
  if (!declared) {
    manifest.devDependencies = withKey(manifest.devDependencies, 'husky', HUSKY_VERSION);
    changes.push(`devDependencies.husky ${HUSKY_VERSION}`);
  }
  const scripts = isRecord(manifest.scripts) ? manifest.scripts : {};
  const prepare = typeof scripts.prepare === 'string' ? scripts.prepare.trim() : '';
  if (!/(^|[\s;&|])husky(\s|$)/.test(prepare)) {
    scripts.prepare = prepare === '' ? prepareCommand : `${prepare} && ${prepareCommand}`;
    manifest.scripts = scripts;
    changes.push(`scripts.prepare "${scripts.prepare}"`);
  }
  if (changes.length === 0) return { text, changes };
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  const ending = text.endsWith('\n') ? '\n' : '';
  return { text: `${JSON.stringify(manifest, null, indent)}${ending}`, changes };
}

/** The dependency map with one more entry, in alphabetical place when the map was sorted. */
function withKey(deps: unknown, key: string, value: string): Record<string, unknown> {
  const entries = Object.entries(isRecord(deps) ? deps : {});
  const names = entries.map(([name]) => name);
  const sorted = names.every((name, i) => i === 0 || (names[i - 1] ?? '') <= name);
  const next = [...entries, [key, value] as const];
  if (sorted) next.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(next);
}
