/** A failure to answer instead of the real response, as `double.failNext` takes it. */
export interface Fault {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** How many consecutive calls fail; 1 unless given. */
  readonly times?: number;
}

/**
 * GitHub's answer when a client creates content too fast (the "abuse" limit of probot/stale#26):
 * 403 with `retry-after`, and a message the throttling plugin recognises.
 */
export function secondaryRateLimit(retryAfterSeconds = 1): Fault {
  return {
    status: 403,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: {
      message:
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
      documentation_url:
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: '403',
    },
  };
}

const DEFAULT_MESSAGE: Record<number, string> = {
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
};

/** Failures queued per operation, served first-in first-out. */
export class FaultQueue {
  private readonly queued = new Map<string, { fault: Fault; remaining: number }[]>();

  add(operationId: string, fault: Fault): void {
    const list = this.queued.get(operationId) ?? [];
    list.push({ fault, remaining: Math.max(fault.times ?? 1, 1) });
    this.queued.set(operationId, list);
  }

  /** The fault for this call of the operation, if one is queued; consumes one use of it. */
  take(
    operationId: string,
  ): { status: number; headers: Record<string, string>; body: unknown } | undefined {
    const list = this.queued.get(operationId);
    const next = list?.[0];
    if (list === undefined || next === undefined) return undefined;
    next.remaining -= 1;
    if (next.remaining === 0) list.shift();
    const { fault } = next;
    return {
      status: fault.status,
      headers: { ...fault.headers },
      body: fault.body ?? {
        message: DEFAULT_MESSAGE[fault.status] ?? 'Error',
        documentation_url: 'https://docs.github.com/rest',
        status: String(fault.status),
      },
    };
  }

  pending(): number {
    return [...this.queued.values()].reduce(
      (sum, list) => sum + list.reduce((count, entry) => count + entry.remaining, 0),
      0,
    );
  }

  clear(): void {
    this.queued.clear();
  }
}
