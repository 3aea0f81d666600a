import { accessSync, chmodSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface FakeGit {
  /** Every call's arguments, one line per call, in order. */
  calls(): string[];
  /** The lines written to the standard input of the calls whose arguments contain `logInputOf`. */
  input(): string[];
  uninstall(): void;
}

/**
 * Puts a `git` wrapper first on PATH, in this test file's copy of process.env, which the
 * adapter hands to every git it starts. The wrapper logs each call, exits 128 with no output
 * when the arguments contain the word `failOn`, answers as a git that predates `unknownOption`
 * does (exit 129, "unknown option") when they contain it, and otherwise runs the real git.
 */
export function installFakeGit(
  folder: string,
  options: { failOn?: string; logInputOf?: string; unknownOption?: string } = {},
): FakeGit {
  const previous = process.env.PATH ?? '';
  const realGit = findOnPath('git', previous);
  const log = join(folder, 'git-calls.log');
  writeFileSync(log, '');
  const failure = options.failOn
    ? `case " $* " in *' ${options.failOn} '*) echo 'fatal: simulated failure' >&2; exit 128;; esac`
    : '';
  const unknown = options.unknownOption
    ? `case " $* " in *' ${options.unknownOption} '*) echo "error: unknown option \\\`${options.unknownOption.replace(/^--/, '')}'" >&2; echo 'usage: git ...' >&2; exit 129;; esac`
    : '';
  const inputLog = join(folder, 'git-input.log');
  writeFileSync(inputLog, '');
  // The standard input of the calls whose arguments contain `logInputOf`, copied on its way.
  const teeInput = options.logInputOf
    ? `case "$*" in *'${options.logInputOf}'*) tee -a '${inputLog}' | '${realGit}' "$@"; exit $?;; esac`
    : '';
  const script = `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n${failure}\n${unknown}\n${teeInput}\nexec '${realGit}' "$@"\n`;
  writeFileSync(join(folder, 'git'), script);
  chmodSync(join(folder, 'git'), 0o755);
  process.env.PATH = `${folder}${delimiter}${previous}`;
  return {
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    input: () => readFileSync(inputLog, 'utf8').split('\n').filter(Boolean),
    uninstall: () => {
      process.env.PATH = previous;
    },
  };
}

function findOnPath(name: string, path: string): string {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder; try the next.
    }
  }
  throw new Error(`${name} is not on PATH`);
}
