import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Probot } from 'probot';
import { PayloadShapeError } from '../github/payload-field.js';
import { byteBudget, type Delivery, MAX_UNVERIFIED_BYTES, readDelivery } from './read-delivery.js';

/**
 * GitHub waits 10 s for an answer, then counts the delivery as failed. The handlers only queue
 * work, so they answer well within this; a slower start is acknowledged with 202 all the same.
 */
const ACKNOWLEDGE_MS = 9_000;

/** The answers to a verified delivery: fixed texts, never an error's message or stack. */
const ANSWERS = {
  ok: { status: 200, text: 'ok' },
  late: { status: 202, text: 'accepted' },
  malformed: { status: 400, text: 'the payload does not have the shape of its event' },
  failed: { status: 500, text: 'the App could not take this delivery; it is logged' },
} as const;

type Answer = (typeof ANSWERS)[keyof typeof ANSWERS];

/**
 * The webhook endpoint: `readDelivery` caps, verifies and decodes the request (THREATS rows 1,
 * 36); a body that is not a JSON object is refused; then probot runs the handlers, each of which
 * reads its payload's shape first (event-payloads.ts), so a signed payload of the wrong shape is
 * a 400 before any API call. Answers are short fixed texts; the details go to the log.
 */
export function webhookEndpoint(
  probot: Probot,
  secret: string,
  acknowledgeMs = ACKNOWLEDGE_MS,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const budget = byteBudget(MAX_UNVERIFIED_BYTES);
  return async (request, response) => {
    const read = await readDelivery(request, secret, budget);
    if ('status' in read) {
      probot.log.warn({ status: read.status, reason: read.text }, 'webhook refused');
      answer(response, read);
      return;
    }
    if (!isJsonObject(read.body)) {
      probot.log.warn({ delivery: read.id, event: read.name }, 'webhook refused: not JSON');
      answer(response, ANSWERS.malformed);
      return;
    }
    answer(response, await acknowledged(dispatch(probot, read), acknowledgeMs));
  };
}

/**
 * Hands a verified delivery to probot. `verifyAndReceive` is its one entry that takes a payload
 * as text: it checks the signature and parses again, and types nothing on the payload's word.
 */
async function dispatch(probot: Probot, delivery: Delivery): Promise<Answer> {
  try {
    await probot.webhooks.verifyAndReceive({
      id: delivery.id,
      name: delivery.name,
      payload: delivery.body,
      signature: delivery.signature,
    });
    return ANSWERS.ok;
  } catch (error) {
    // probot's error handler has logged each handler's error with the delivery id.
    const causes = error instanceof AggregateError ? error.errors : [error];
    return causes.some((cause) => cause instanceof PayloadShapeError)
      ? ANSWERS.malformed
      : ANSWERS.failed;
  }
}

async function acknowledged(dispatched: Promise<Answer>, acknowledgeMs: number): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve(ANSWERS.late), acknowledgeMs);
  });
  try {
    return await Promise.race([dispatched, late]);
  } finally {
    clearTimeout(timer);
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function answer(
  response: ServerResponse,
  { status, text, unread = false }: { status: number; text: string; unread?: boolean },
): void {
  // A body left unread is not drained: closing is cheaper than reading a forged 30 MB.
  response
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      ...(unread ? { connection: 'close' } : {}),
    })
    .end(`${text}\n`);
}
