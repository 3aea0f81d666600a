import { nextRequestOrder } from '../request-order.js';

/**
 * What became of a request:
 * - `handled`: a handler answered (any status, including GitHub's own 404/409/422 answers);
 * - `unexpected`: no operation of the fixture matches the method and path;
 * - `invalid`: the request breaks the operation's schema or GitHub's validation rules;
 * - `unauthorized`: no token, or one the double does not know;
 * - `forbidden`: the token lacks a permission the operation needs;
 * - `injected`: answered by a fault queued with `failNext`;
 * - `response-violation`: the double's own answer broke the response schema (a double bug).
 */
export type Outcome =
  | 'handled'
  | 'unexpected'
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'injected'
  | 'response-violation';

export interface RecordedRequest {
  readonly method: string;
  /** The concrete path, without the query string (`/repos/o/r/issues/7/comments`). */
  readonly path: string;
  readonly operationId: string | undefined;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly token: string | undefined;
  readonly status: number;
  readonly outcome: Outcome;
  /** Why the request was refused, for invalid, forbidden and similar outcomes. */
  readonly message?: string;
  /** Its place among the requests of every test server (request-order.ts). */
  readonly order: number;
}

export class Recorder {
  private readonly log: RecordedRequest[] = [];

  add(request: Omit<RecordedRequest, 'order'>): void {
    this.log.push({ ...request, order: nextRequestOrder() });
  }

  all(): RecordedRequest[] {
    return [...this.log];
  }

  withOutcome(outcome: Outcome): RecordedRequest[] {
    return this.log.filter((request) => request.outcome === outcome);
  }

  clear(): void {
    this.log.length = 0;
  }
}
