import { describe, expect, it } from '@jest/globals';
import {
  type AureusCommand,
  MAX_REASON_LENGTH,
  MAX_SCANNED_BODY,
  parseCommand,
} from '../../src/github/parse-command.js';

const ZWSP = '\u200B';
const RLO = '\u202E';
const LRI = '\u2066';
const PDI = '\u2069';
/** "hi" in Unicode tag characters: invisible, read by models (ASCII smuggling). */
const TAGS = '\u{E0068}\u{E0069}';

const cases: ReadonlyArray<readonly [string, string, AureusCommand | null]> = [
  ['plain help', '/aureus help', { kind: 'help' }],
  ['bare /aureus asks for help', '/aureus', { kind: 'help' }],
  ['check', '/aureus check', { kind: 'check' }],
  ['price', '/aureus price', { kind: 'price' }],
  ['simplify', '/aureus simplify', { kind: 'simplify' }],
  ['implement', '/aureus implement', { kind: 'implement', instructions: '' }],
  [
    'implement with visible instructions',
    '/aureus implement  keep\u200B it small',
    { kind: 'implement', instructions: 'keep it small' },
  ],
  ['cancel', '/aureus cancel', { kind: 'cancel' }],
  ['leading spaces (up to three)', '   /aureus check', { kind: 'check' }],
  ['four spaces make indented code', '    /aureus check', null],
  ['a tab makes indented code', '\t/aureus check', null],
  ['trailing words after a plain command', '/aureus check please', { kind: 'check' }],
  ['tab between /aureus and the word', '/aureus\tprice', { kind: 'price' }],
  ['CRLF line endings', 'thanks\r\n/aureus price\r\n', { kind: 'price' }],
  ['after prose in the same paragraph', 'Looks wrong to me.\n/aureus check', { kind: 'check' }],
  ['upper case is accepted', '/AUREUS CHECK', { kind: 'check' }],
  ['mixed case is accepted', '/Aureus Price', { kind: 'price' }],
  // The word kept is normalised (NFKC: K), but the command was matched before: unknown.
  ['Kelvin sign is not k', '/aureus chec\u212A', { kind: 'unknown', word: 'checK' }],
  ['long s is not s', '/aureu\u017F check', null],
  ['unknown word', '/aureus deploy', { kind: 'unknown', word: 'deploy' }],
  [
    'unknown word is bounded',
    `/aureus ${'x'.repeat(100)}`,
    { kind: 'unknown', word: `${'x'.repeat(39)}…` },
  ],
  ['/aureusx is not a command', '/aureusx check', null],
  ['/aureus- is not a command', '/aureus-check', null],
  ['no-break space after /aureus is not a separator', '/aureus\u00A0check', null],
  ['mid-line mention is not a command', 'please run /aureus check', null],
  ['inside a word', 'x/aureus check', null],
  ['no command at all', 'LGTM', null],
  ['empty body', '', null],
  ['zero-width inside /aureus', `/aur${ZWSP}eus check`, null],
  ['zero-width before /aureus', `${ZWSP}/aureus check`, null],
  ['zero-width right after /aureus', `/aureus${ZWSP} check`, null],
  ['bidi override before the line', `${RLO}/aureus check`, null],
  ['bidi isolate inside the word', `/aureus ${LRI}check${PDI}`, { kind: 'unknown', word: 'check' }],
  ['zero-width inside the word', `/aureus ch${ZWSP}eck`, { kind: 'unknown', word: 'check' }],
  ['tags after the word', `/aureus check${TAGS}`, { kind: 'unknown', word: 'check' }],
  ['quoted command', '> /aureus check', null],
  ['nested quote', '> > /aureus check', null],
  ['indented quote', '  > /aureus check', null],
  ['lazy continuation of a quote', '> Someone said:\n/aureus check', null],
  [
    'after a quote and a blank line',
    '> Someone said: /aureus check\n\n/aureus price',
    { kind: 'price' },
  ],
  ['inside a backtick fence', '```\n/aureus check\n```', null],
  ['inside a tilde fence', '~~~sh\n/aureus check\n~~~', null],
  ['after a fence closes', '```\n/aureus check\n```\n/aureus price', { kind: 'price' }],
  ['a shorter fence does not close a longer one', '````\n```\n/aureus check\n````', null],
  ['a tilde does not close a backtick fence', '```\n~~~\n/aureus check', null],
  ['an unclosed fence runs to the end', 'see:\n```\n/aureus check', null],
  ['fence opened right after a quote', '> quoted\n```\n/aureus check\n```', null],
  ['inside a multi-line HTML comment', '<!--\n/aureus check\n-->', null],
  ['on a line with an HTML comment', '<!-- x -->/aureus check', null],
  ['after an HTML comment closes', '<!-- hidden -->\n/aureus price', { kind: 'price' }],
  ['an unclosed HTML comment hides the rest', '<!--\n/aureus check', null],
  [
    'inside a collapsed <details>',
    '<details>\n<summary>More</summary>\n/aureus help\n</details>',
    null,
  ],
  [
    '<details> content after a blank line (Markdown inside)',
    '<details><summary>More</summary>\n\n/aureus help\n\n</details>',
    null,
  ],
  ['inside <details open>', '<details open>\n\n/aureus help\n\n</details>', null],
  ['upper-case <DETAILS>', '<DETAILS>\n/aureus help\n</DETAILS>', null],
  ['an unclosed <details> hides the rest', 'Logs:\n<details>\n/aureus check', null],
  [
    'nested <details> close one at a time',
    '<details>\n<details>\nx\n</details>\n/aureus help\n</details>',
    null,
  ],
  [
    'after <details> closes',
    '<details>\n/aureus help\n</details>\n/aureus price',
    { kind: 'price' },
  ],
  ['inside an element with hidden', '<div hidden>\n<div>\n</div>\n/aureus help\n</div>', null],
  [
    'after a hidden element closes',
    '<p hidden>\n/aureus help\n</p>\n/aureus price',
    { kind: 'price' },
  ],
  ['inside <template>', '<template>\n/aureus help\n</template>', null],
  ['inside a plain <div>: shown', '<div>\n\n/aureus help\n\n</div>', { kind: 'help' }],
  [
    '<details> inside an HTML comment hides nothing',
    '<!-- <details> -->\n/aureus help',
    { kind: 'help' },
  ],
  [
    '<details> inside a code span hides nothing',
    'The `<details>` tag.\n/aureus help',
    { kind: 'help' },
  ],
  ['inside a code span across lines', 'Type `\n/aureus help\n` to see them.', null],
  ['inside a double-backtick code span', 'Type ``a`\n/aureus help\n`` here.', null],
  [
    'after a code span closes on its line',
    'Ran `npm test` here.\n/aureus check',
    { kind: 'check' },
  ],
  [
    'a blank line ends an unclosed code span',
    'A stray ` here.\n\n/aureus check',
    { kind: 'check' },
  ],
  ['first command line wins', '/aureus price\n/aureus check', { kind: 'price' }],
  ['first wins even if unknown', '/aureus nope\n/aureus check', { kind: 'unknown', word: 'nope' }],
  [
    'approve-policy with a reason',
    '/aureus approve-policy  agreed in the design review ',
    { kind: 'approve-policy', reason: 'agreed in the design review' },
  ],
  [
    'approve-policy without a reason',
    '/aureus approve-policy',
    { kind: 'approve-policy', reason: '' },
  ],
  [
    'approve-budget with a reason',
    '/aureus approve-budget  hotfix for the outage  ',
    { kind: 'approve-budget', reason: 'hotfix for the outage' },
  ],
  [
    'approve-budget with an amount of points, for a stopped builder run',
    '/aureus approve-budget 60pt',
    { kind: 'approve-budget', reason: '60pt', amount: { points: 60 } },
  ],
  [
    'approve-budget with an amount of dollars',
    '/aureus approve-budget $4.50',
    { kind: 'approve-budget', reason: '$4.50', amount: { usd: 4.5 } },
  ],
  [
    'approve-budget case-insensitive',
    '/AUREUS Approve-Budget release blocker',
    { kind: 'approve-budget', reason: 'release blocker' },
  ],
  [
    'implement with a budget in dollars',
    '/aureus implement --budget $5 keep it small',
    { kind: 'implement', instructions: 'keep it small', maxUsd: 5 },
  ],
  [
    'implement with a budget of cents, no dollar sign',
    '/aureus implement --BUDGET 0.25',
    { kind: 'implement', instructions: '', maxUsd: 0.25 },
  ],
  [
    'implement with a budget in complexity points',
    '/aureus implement --budget 30PT keep it small',
    { kind: 'implement', instructions: 'keep it small', maxPoints: 30 },
  ],
  [
    'implement with points that are not whole',
    '/aureus implement --budget 2.5pt',
    { kind: 'usage', command: 'implement' },
  ],
  [
    'implement with a malformed budget',
    '/aureus implement --budget five dollars',
    { kind: 'usage', command: 'implement' },
  ],
  [
    'implement with a budget but no value',
    '/aureus implement --budget',
    { kind: 'usage', command: 'implement' },
  ],
  [
    'approve-budget without a reason',
    '/aureus approve-budget',
    { kind: 'usage', command: 'approve-budget' },
  ],
  [
    'approve-budget with only invisible characters',
    `/aureus approve-budget ${ZWSP}${RLO}${TAGS}\u00AD`,
    { kind: 'usage', command: 'approve-budget' },
  ],
  [
    'approve-budget reason stripped of hidden content',
    `/aureus approve-budget ok${ZWSP} to${RLO} ship\u0007${TAGS}\tnow\uFEFF`,
    { kind: 'approve-budget', reason: 'ok to ship now' },
  ],
  [
    'approve-budget reason NFKC-normalised',
    '/aureus approve-budget \uFF46\uFF55\uFF4C\uFF4C\u3000width \uFB01x',
    { kind: 'approve-budget', reason: 'full width fix' },
  ],
  [
    'approve-budget reason is the same line only',
    '/aureus approve-budget first line\nsecond line',
    { kind: 'approve-budget', reason: 'first line' },
  ],
];

describe('parseCommand', () => {
  it.each(cases)('%s', (_name, body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it('bounds the reason to MAX_REASON_LENGTH code points, never splitting an emoji', () => {
    const command = parseCommand(`/aureus approve-budget ${'😀'.repeat(MAX_REASON_LENGTH + 10)}`);
    expect(command).toEqual({
      kind: 'approve-budget',
      reason: `${'😀'.repeat(MAX_REASON_LENGTH - 1)}…`,
    });
  });

  it('reads only the first 64 KiB of a body', () => {
    const filler = `${'a'.repeat(99)}\n`.repeat(Math.ceil(MAX_SCANNED_BODY / 100));
    expect(parseCommand(`${filler}/aureus check`)).toBeNull();
    expect(parseCommand(`/aureus price\n${filler}${filler}`)).toEqual({ kind: 'price' });
  });

  it('does not half-read a command line cut at 64 KiB', () => {
    const prefix = `${'a'.repeat(MAX_SCANNED_BODY - 30)}\n`;
    const body = `${prefix}/aureus approve-budget ${'r'.repeat(100)}`;
    expect(body.length).toBeGreaterThan(MAX_SCANNED_BODY);
    expect(parseCommand(body)).toBeNull();
  });

  it('stays linear on a hostile 1 MB body', () => {
    const started = Date.now();
    expect(parseCommand('<!--'.repeat(250_000))).toBeNull();
    expect(parseCommand(`${'>'.repeat(1_000_000)}`)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
