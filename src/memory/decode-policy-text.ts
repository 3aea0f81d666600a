import type { PolicyProblem } from '../policy/policy-problem.js';

/** A policy is a few kilobytes; anything this large is not one, and parsing it would waste the run. */
export const MAX_POLICY_BYTES = 256 * 1024;

export type DecodeResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: PolicyProblem };

/**
 * Turns the bytes of a policy file into text, refusing what YAML parsing would silently
 * misread: empty files, binary content, UTF-16, invalid UTF-8 (with the place of the bad byte).
 */
export function decodePolicyText(bytes: Uint8Array, file: string): DecodeResult {
  const fail = (line: number, column: number, message: string, hint: string): DecodeResult => ({
    ok: false,
    problem: { file, line, column, message, hint },
  });
  if (bytes.length === 0) {
    return fail(
      1,
      1,
      'the policy file is empty.',
      'write at least "version: 1" (`aureus policy show` prints every setting with its default).',
    );
  }
  if (bytes.length > MAX_POLICY_BYTES)
    return { ok: false, problem: tooLargeProblem(bytes.length, file) };
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    return fail(1, 1, 'the policy file is encoded as UTF-16.', 'save it as UTF-8.');
  }
  const badByte = firstInvalidUtf8Byte(bytes);
  if (badByte !== -1) {
    const { line, column } = positionOfByte(bytes, badByte);
    return fail(
      line,
      column,
      `byte 0x${hex(bytes[badByte])} is not valid UTF-8.`,
      'save the file as UTF-8 (it looks like Latin-1 or another legacy encoding).',
    );
  }
  // The decoder drops a leading byte-order mark, which YAML would otherwise see as content.
  const text = new TextDecoder('utf-8').decode(bytes);
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const { line, column } = positionOfChar(text, nul);
    return fail(
      line,
      column,
      'the policy file contains a NUL byte, so it is binary, not YAML.',
      'check that the path names the policy and not another file, and remove the NUL byte.',
    );
  }
  return { ok: true, text };
}

/** The problem for a file over MAX_POLICY_BYTES, also used by readers that stop reading at the cap. */
export function tooLargeProblem(size: number, file: string): PolicyProblem {
  return {
    file,
    line: 1,
    column: 1,
    message: `the policy file is ${formatSize(size)}; a policy may be at most ${formatSize(MAX_POLICY_BYTES)}.`,
    hint: 'keep only settings in it (no data or generated content), or check that the path names the right file.',
  };
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (WHATWG rules), or -1. */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const sequence = utf8Sequence(lead);
    if (sequence === undefined) return i;
    let [lower, upper] = sequence.secondByte;
    for (let k = 1; k <= sequence.continuation; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < lower || byte > upper) return i;
      [lower, upper] = [0x80, 0xbf];
    }
    i += sequence.continuation + 1;
  }
  return -1;
}

/** Continuation count and the allowed range of the second byte (it excludes overlongs and surrogates). */
function utf8Sequence(
  lead: number,
): { continuation: number; secondByte: [number, number] } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { continuation: 1, secondByte: [0x80, 0xbf] };
  if (lead === 0xe0) return { continuation: 2, secondByte: [0xa0, 0xbf] };
  if (lead === 0xed) return { continuation: 2, secondByte: [0x80, 0x9f] };
  if (lead >= 0xe1 && lead <= 0xef) return { continuation: 2, secondByte: [0x80, 0xbf] };
  if (lead === 0xf0) return { continuation: 3, secondByte: [0x90, 0xbf] };
  if (lead === 0xf4) return { continuation: 3, secondByte: [0x80, 0x8f] };
  if (lead >= 0xf1 && lead <= 0xf3) return { continuation: 3, secondByte: [0x80, 0xbf] };
  return undefined;
}

function positionOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  return positionOfChar(before, before.length);
}

function positionOfChar(text: string, index: number): { line: number; column: number } {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: [...text.slice(lineStart, index)].length + 1 };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function hex(byte: number | undefined): string {
  return (byte ?? 0).toString(16).padStart(2, '0');
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;
}
