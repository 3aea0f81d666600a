/**
 * AUREUS's line in a git hook script, merged into whatever the script already runs (a
 * lint-staged call, another tool's hook) and taken out again, without touching anyone else's
 * lines. Pure text in, text out: install-hooks does the reading and writing.
 */

export type HookName = 'pre-commit' | 'post-commit' | 'pre-push' | 'commit-msg';

/** A line that runs `aureus hook <name>`, whatever prefix or arguments it has; never a comment. */
function isOurs(line: string, name: HookName): boolean {
  const trimmed = line.trim();
  return (
    !trimmed.startsWith('#') &&
    new RegExp(`(^|[\\s;&|(/])aureus hook ${name}([\\s;&|)]|$)`).test(trimmed)
  );
}

/**
 * A line that ends the script for the lines after it: `exec …` replaces the shell, `exit …`
 * stops it. Only unindented ones count: an indented one sits inside a branch or a function.
 */
function endsScript(line: string): boolean {
  return /^(exec|exit)(\s|$)/.test(line);
}

export interface MergedScript {
  readonly text: string;
  readonly changed: boolean;
}

/**
 * The script with `line` as AUREUS's only line for `name`: an earlier AUREUS line is replaced
 * in place (a re-install never duplicates it), otherwise the line goes at the end, or before the
 * first line that would stop the script from reaching the end. `header` starts a new script.
 */
export function mergeHookLine(
  existing: string | null,
  name: HookName,
  line: string,
  header: string,
): MergedScript {
  if (existing === null) return { text: `${header}${line}\n`, changed: true };
  const lines = existing.split('\n');
  const ours = lines.flatMap((text, index) => (isOurs(text, name) ? [index] : []));
  let next: string[];
  const [first] = ours;
  if (first !== undefined) {
    next = lines.flatMap((text, index) =>
      index === first ? [line] : ours.includes(index) ? [] : [text],
    );
  } else {
    const body = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
    const stop = body.findIndex(endsScript);
    next =
      stop === -1 ? [...body, line, ''] : [...body.slice(0, stop), line, ...body.slice(stop), ''];
  }
  const text = next.join('\n');
  return { text, changed: text !== existing };
}

/**
 * The script without AUREUS's lines for `name`; `empty` when nothing of the user's is left
 * (blank lines and a shebang are not worth keeping a hook file for).
 */
export function removeHookLine(
  existing: string,
  name: HookName,
): MergedScript & { empty: boolean } {
  const kept = existing.split('\n').filter((text) => !isOurs(text, name));
  const text = kept.join('\n');
  const empty = kept.every((text) => text.trim() === '' || text.startsWith('#!'));
  return { text, changed: text !== existing, empty };
}

/** Whether the script already runs `aureus hook <name>`. */
export function hasHookLine(existing: string | null, name: HookName): boolean {
  return existing?.split('\n').some((text) => isOurs(text, name)) ?? false;
}

/** A word for `sh`: as it is when it holds nothing special, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
