import { partsAreSecret, publicPartOf, type SecretSlices, secretSlices } from './secret-slices.js';

/**
 * Removes secrets from every text that goes to a model or into the trajectory: tokens by their
 * published formats, values assigned to secret-looking names, and the exact values AUREUS knows
 * to be secret (the environment's, git configuration's, the repository's secret files') in
 * plain, reversed, hex, base64 and URL-encoded form, so "print it encoded" does not leak them,
 * and in part (secret-slices), so "print it in two halves" does not either.
 */
export type Scrub = (text: string) => string;

export const REDACTED = '[REDACTED]';

/** Shorter values are too likely to be ordinary words or numbers to remove everywhere. */
export const MIN_SECRET_LENGTH = 8;

const TOKEN_FORMATS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,255}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,255}/g,
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
];

/** `Authorization: Bearer …`, `token …`, and a URL's `user:password@`: keep the frame. */
const FRAMED_SECRETS: readonly RegExp[] = [
  /(\b(?:Bearer|Basic|token)\s+)([A-Za-z0-9._~+/=-]{12,})/gi,
  /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^/\s:@]{0,200}:)([^/\s@]{1,200})(?=@)/gi,
];

/** `api_token = "…"`, `"password": '…'`, `SECRET_KEY=…` at the start of a line (.env files). */
// Bounded repeats keep every pattern linear: no text makes the scrubber backtrack for long.
const SECRET_NAME =
  '[A-Za-z0-9_.-]{0,40}(?:token|secret|passw(?:or)?d|credential|private|api[_-]?key|access[_-]?key|auth(?!or))[A-Za-z0-9_.-]{0,40}';
const QUOTED_ASSIGNMENT = new RegExp(
  `(\\b${SECRET_NAME}["']?\\s*[:=]\\s*)(["'])([^"'\\s]{${MIN_SECRET_LENGTH},})\\2`,
  'gi',
);
const LINE_ASSIGNMENT = new RegExp(
  `^(\\s*(?:export\\s+)?${SECRET_NAME}\\s*[=:]\\s*)([^\\s"'#][^\\s#]{${MIN_SECRET_LENGTH - 1},})\\s*$`,
  'gim',
);

/**
 * A scrubber that knows `secrets` (values from the environment, git configuration and files).
 * Values it finds assigned to secret-looking names are learnt, so the same value later seen
 * on its own (in a diff, encoded) is removed too.
 */
export function secretScrubber(secrets: Iterable<string>): Scrub {
  const { learn, find } = knownValues(secrets);
  return (text) => {
    let out = text;
    out = out.replace(QUOTED_ASSIGNMENT, (_all, name: string, quote: string, value: string) => {
      learn(value);
      return `${name}${quote}${REDACTED}${quote}`;
    });
    out = out.replace(LINE_ASSIGNMENT, (_all, name: string, value: string) => {
      learn(value);
      return `${name}${REDACTED}`;
    });
    out = find(out).replaced;
    for (const format of TOKEN_FORMATS) out = out.replace(format, REDACTED);
    for (const framed of FRAMED_SECRETS) {
      out = out.replace(framed, (_all, frame: string) => `${frame}${REDACTED}`);
    }
    return out;
  };
}

/**
 * Whether a text holds a secret AUREUS knows of (`secrets`), whole or in part, in any of the
 * forms the scrubber removes: for refusing an action that would write one, where removing it
 * silently would leave a file or a commit that says something else than the model meant.
 */
export function secretFinder(secrets: Iterable<string>): (text: string) => boolean {
  const { find } = knownValues(secrets);
  return (text) => find(text).found;
}

/** The known values' forms and slices, and what finding them in a text gives. */
function knownValues(secrets: Iterable<string>): {
  readonly learn: (value: string) => void;
  readonly find: (text: string) => { readonly replaced: string; readonly found: boolean };
} {
  const known = new Set<string>();
  const slices: SecretSlices = secretSlices();
  const sliced = new Set<string>();
  let pattern: RegExp | undefined;
  const learn = (value: string): void => {
    for (const form of encodedForms(value)) {
      if (!known.has(form)) {
        known.add(form);
        pattern = undefined;
      }
    }
    if (partsAreSecret(value) && !sliced.has(value)) {
      sliced.add(value);
      const { plain, encoded } = formsOf(value);
      const shared = publicPartOf(value);
      slices.add(plain, encoded, shared === '' ? [] : formsOf(shared).plain);
    }
  };
  for (const secret of secrets) learn(secret);
  const find = (text: string) => {
    pattern ??= knownPattern(known);
    const whole = pattern === undefined ? text : text.replace(pattern, REDACTED);
    const ranges = slices.covered(whole);
    let replaced = '';
    let from = 0;
    for (const [start, end] of ranges) {
      replaced += `${whole.slice(from, start)}${REDACTED}`;
      from = end;
    }
    replaced += whole.slice(from);
    return { replaced, found: replaced !== text };
  };
  return { learn, find };
}

function knownPattern(known: ReadonlySet<string>): RegExp | undefined {
  if (known.size === 0) return undefined;
  // Longest first, so a value is removed whole before any shorter value inside it.
  const sorted = [...known].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
}

/** The forms of a value a model could be talked into printing, each long enough to match. */
export function encodedForms(value: string): string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  const { plain, encoded } = formsOf(value);
  return [...new Set([...plain, ...encoded])].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/** A value as it reads (itself, reversed, URL-encoded) and as it is encoded (hex, base64). */
function formsOf(value: string): { readonly plain: string[]; readonly encoded: string[] } {
  const bytes = Buffer.from(value, 'utf8');
  return {
    plain: [value, [...value].reverse().join(''), encodeURIComponent(value)],
    encoded: [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      ...base64Cores(bytes, 'base64'),
      ...base64Cores(bytes, 'base64url'),
    ],
  };
}

/**
 * Base64 of a value depends on where it starts in the encoded text (3 alignments): for each,
 * the characters that only the value's own bits decide, so the value is found inside any
 * larger encoded blob, not only encoded on its own.
 */
function base64Cores(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    return encoded.slice(start, end);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
