import { payloadField as field } from './payload-field.js';

/**
 * A maintainer's `/aureus approve-budget` (or `approve-policy`) for one head commit, as the App
 * records it.
 */
export interface RecordedApproval {
  /** The head commit the approval is bound to: a new push is judged again. */
  readonly headSha: string;
  readonly approverId: number;
  readonly approverLogin: string;
  readonly reason: string;
}

const BUDGET_PREFIX = '<!-- aureus:budget-approval ';
const POLICY_PREFIX = '<!-- aureus:policy-approval ';
const SUFFIX = ' -->';
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The hidden first line of the App's approval reply. The record is base64url JSON, so nothing a
 * maintainer wrote in the reason can end the HTML comment or forge a second record. It is
 * trusted only in comments the App itself wrote (see `readAureusComments`).
 */
export function approvalMarker(approval: RecordedApproval): string {
  return markerOf(BUDGET_PREFIX, approval);
}

/** The same hidden record for an approval of a policy loosening (`/aureus approve-policy`). */
export function policyApprovalMarker(approval: RecordedApproval): string {
  return markerOf(POLICY_PREFIX, approval);
}

/** The budget approval a comment body starts with, or undefined when it is not a well-formed one. */
export function readApprovalMarker(body: string): RecordedApproval | undefined {
  return readMarker(BUDGET_PREFIX, body);
}

/** The policy approval a comment body starts with, or undefined. */
export function readPolicyApprovalMarker(body: string): RecordedApproval | undefined {
  return readMarker(POLICY_PREFIX, body);
}

function markerOf(prefix: string, approval: RecordedApproval): string {
  const json = JSON.stringify({
    headSha: approval.headSha,
    approverId: approval.approverId,
    approverLogin: approval.approverLogin,
    reason: approval.reason,
  });
  return `${prefix}${Buffer.from(json, 'utf8').toString('base64url')}${SUFFIX}`;
}

function readMarker(prefix: string, body: string): RecordedApproval | undefined {
  if (!body.startsWith(prefix)) return undefined;
  const end = body.indexOf(SUFFIX, prefix.length);
  if (end < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body.slice(prefix.length, end), 'base64url').toString('utf8'));
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
