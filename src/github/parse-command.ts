import { visibleLines } from './visible-lines.js';
import { boundedText, visibleText } from './visible-text.js';

/**
 * The `/aureus` command a comment carries, read the way a human reads the rendered comment:
 * only a line that shows as `/aureus …` in the comment's own text counts. Quoted text, code,
 * HTML comments and lines disguised with invisible characters are never commands, so a comment
 * cannot trigger AUREUS with something its readers do not see as a command (THREATS rows 5, 9).
 *
 * Rules, decided once:
 * - A command line is `/aureus` after at most three spaces (four or a tab make an indented code
 *   block in Markdown), followed by the end of the line or a space or tab: `/aureusx` is not one.
 * - Case: `/aureus` and the command word are matched case-insensitively in ASCII only, since
 *   phone keyboards capitalise (`/AUREUS CHECK` is `check`); non-ASCII look-alikes never match
 *   (the regular expressions run without the `u` flag, whose case folding maps the Kelvin sign
 *   to `k`). For the same reason the line is not NFKC-normalised before matching: that would
 *   make fullwidth letters, the Kelvin sign or a no-break space into a command.
 * - Invisible characters (zero-width, bidi, tags…) in `/aureus` or before it: not a command;
 *   in the command word: an unknown command. They are not stripped to find a command: a bidi
 *   override shows a line in another order than it is read, so a stripped line could run a
 *   command its reader saw as something else. What a reader sees is what AUREUS runs; the text
 *   it keeps (a reason, a word) is stripped and NFKC-normalised (visible-text.ts).
 * - Only lines a reader sees as the comment's own text count (visible-lines.ts): quotes, code
 *   (fenced, or a code span over several lines), HTML comments, `<details>` and other hidden
 *   elements are skipped, with the lines of their tags.
 * - The first command line wins; later ones are ignored.
 * - `/aureus` alone asks for help; words after a command without arguments are ignored.
 * - Only the first 64 KiB (UTF-16 code units) of a body is read, up to its last whole line.
 */
export type AureusCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'check' }
  | { readonly kind: 'price' }
  /** Reflexion on the pull request now, whether or not its triggers say it is due. */
  | { readonly kind: 'simplify' }
  /**
   * `reason`: visible text only, trimmed, non-empty, at most MAX_REASON_LENGTH code points.
   * `amount`: set when the reason is just a budget (`$5`, `60pt`), what it means on an issue
   * whose builder run stopped for want of budget.
   */
  | { readonly kind: 'approve-budget'; readonly reason: string; readonly amount?: BudgetAmount }
  /** `reason`: as for approve-budget, but optional (empty when none is given). */
  | { readonly kind: 'approve-policy'; readonly reason: string }
  /**
   * `instructions`: visible text after the word (and after `--budget $N`), as for a reason; may
   * be empty. `maxUsd`: the requester's cap on the run's model spend, in dollars; `maxPoints`
   * (`--budget 30pt`): their cap on the change's complexity points.
   */
  | {
      readonly kind: 'implement';
      readonly instructions: string;
      readonly maxUsd?: number;
      readonly maxPoints?: number;
    }
  | { readonly kind: 'cancel' }
  /** A known command used wrongly (`approve-budget` without a reason, a malformed `--budget`). */
  | { readonly kind: 'usage'; readonly command: 'approve-budget' | 'implement' }
  /** `word`: visible text only, at most MAX_WORD_LENGTH code points, may be empty. */
  | { readonly kind: 'unknown'; readonly word: string };

/** A budget a person gives: dollars of model spend, or complexity points of the change. */
export type BudgetAmount = { readonly usd: number } | { readonly points: number };

export const MAX_SCANNED_BODY = 64 * 1024;
export const MAX_REASON_LENGTH = 500;
export const MAX_WORD_LENGTH = 40;

const COMMAND_LINE = /^ {0,3}\/aureus(?:[ \t]+(.*))?$/i;
const WORD = /^[A-Za-z][A-Za-z-]*$/;
/**
 * `--budget $5`, `--budget 2.50`: dollars with at most two decimals; `--budget 30pt`: complexity
 * points, whole. Matched before `visibleText`.
 */
const BUDGET_FLAG = /^[ \t]*--budget(?:[ \t]+(\S*))?/i;
const DOLLARS = /^\$?(\d{1,6}(?:\.\d{1,2})?)$/;
const POINTS = /^(\d{1,6})pt$/i;

export function parseCommand(body: string): AureusCommand | null {
  for (const line of visibleLines(scannedLines(body))) {
    const match = COMMAND_LINE.exec(line);
    if (match !== null) return commandOf(match[1] ?? '');
  }
  return null;
}

/** The lines of the part of `body` that is read: a cut line is dropped, not half-read. */
function scannedLines(body: string): string[] {
  if (body.length <= MAX_SCANNED_BODY) return body.split(/\r\n|\r|\n/);
  const head = body.slice(0, MAX_SCANNED_BODY);
  return head.slice(0, Math.max(0, head.search(/[\r\n][^\r\n]*$/))).split(/\r\n|\r|\n/);
}

function commandOf(rest: string): AureusCommand {
  const trimmed = rest.replace(/^[ \t]+/, '');
  const space = trimmed.search(/[ \t]/);
  const word = space < 0 ? trimmed : trimmed.slice(0, space);
  const argument = space < 0 ? '' : trimmed.slice(space);
  if (word === '') return { kind: 'help' };
  if (!WORD.test(word)) return unknown(word);
  switch (word.toLowerCase()) {
    case 'help':
      return { kind: 'help' };
    case 'check':
      return { kind: 'check' };
    case 'price':
      return { kind: 'price' };
    case 'simplify':
      return { kind: 'simplify' };
    case 'implement':
      return implementOf(argument);
    case 'cancel':
      return { kind: 'cancel' };
    case 'approve-budget': {
      const reason = boundedText(visibleText(argument), MAX_REASON_LENGTH);
      if (reason === '') return { kind: 'usage', command: 'approve-budget' };
      const amount = budgetAmountOf(argument.trim());
      return { kind: 'approve-budget', reason, ...(amount === undefined ? {} : { amount }) };
    }
    case 'approve-policy':
      return {
        kind: 'approve-policy',
        reason: boundedText(visibleText(argument), MAX_REASON_LENGTH),
      };
    default:
      return unknown(word);
  }
}

function implementOf(argument: string): AureusCommand {
  const flag = BUDGET_FLAG.exec(argument);
  const rest = flag === null ? argument : argument.slice(flag[0].length);
  const instructions = boundedText(visibleText(rest), MAX_REASON_LENGTH);
  if (flag === null) return { kind: 'implement', instructions };
  const amount = budgetAmountOf(flag[1] ?? '');
  if (amount === undefined) return { kind: 'usage', command: 'implement' };
  return 'points' in amount
    ? { kind: 'implement', instructions, maxPoints: amount.points }
    : { kind: 'implement', instructions, maxUsd: amount.usd };
}

/** `$5`, `2.50` (dollars) or `30pt` (points), matched on the raw text as a reader sees it. */
function budgetAmountOf(word: string): BudgetAmount | undefined {
  const points = POINTS.exec(word);
  if (points !== null) return { points: Number(points[1]) };
  const dollars = DOLLARS.exec(word);
  return dollars === null ? undefined : { usd: Number(dollars[1]) };
}

function unknown(word: string): AureusCommand {
  return { kind: 'unknown', word: boundedText(visibleText(word), MAX_WORD_LENGTH) };
}
