import { payloadField as field } from './payload-field.js';

/** A maintainer's `/aureus approve-budget` for one head commit, as the App records it. */
export interface RecordedApproval {
  /** The head commit the approval is bound to: a new push is judged again. */
  readonly headSha: string;
  readonly approverId: number;
  readonly approverLogin: string;
  readonly reason: string;
}

const PREFIX = '<!-- aureus:budget-approval ';
const SUFFIX = ' -->';
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The hidden first line of the App's approval reply. The record is base64url JSON, so nothing a
 * maintainer wrote in the reason can end the HTML comment or forge a second record. It is
 * trusted only in comments the App itself wrote (see `readAureusComments`).
 */
export function approvalMarker(approval: RecordedApproval): string {
  const json = JSON.stringify({
    headSha: approval.headSha,
    approverId: approval.approverId,
    approverLogin: approval.approverLogin,
    reason: approval.reason,
  });
  return `${PREFIX}${Buffer.from(json, 'utf8').toString('base64url')}${SUFFIX}`;
}

/** The approval a comment body starts with, or undefined when it is not a well-formed one. */
export function readApprovalMarker(body: string): RecordedApproval | undefined {
  if (!body.startsWith(PREFIX)) return undefined;
  const end = body.indexOf(SUFFIX, PREFIX.length);
  if (end < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body.slice(PREFIX.length, end), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const headSha = field(value, 'headSha');
  const approverId = field(value, 'approverId');
  const approverLogin = field(value, 'approverLogin');
  const reason = field(value, 'reason');
  if (typeof headSha !== 'string' || !SHA.test(headSha)) return undefined;
  if (typeof approverId !== 'number' || !Number.isSafeInteger(approverId) || approverId <= 0)
    return undefined;
  if (typeof approverLogin !== 'string' || typeof reason !== 'string' || reason === '')
    return undefined;
  return { headSha, approverId, approverLogin, reason };
}
