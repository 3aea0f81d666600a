/** package.json text with the given sections. */
export function packageJson(sections: Record<string, Record<string, string>>): string {
  return `${JSON.stringify({ name: 'app', version: '1.0.0', ...sections }, null, 2)}\n`;
}

export interface LockPackage {
  readonly dependencies?: Record<string, string>;
  readonly hasInstallScript?: boolean;
  readonly link?: boolean;
  readonly resolved?: string;
}

/** A v3 package-lock.json text whose `packages` map holds the root and the given entries. */
export function lockfile(packages: Record<string, LockPackage>): string {
  return `${JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages: { '': { name: 'app' }, ...packages } }, null, 2)}\n`;
}
