import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';

/** What the sender of a large delivery saw. */
export interface LargeDeliveryOutcome {
  /** The status the server answered with, if an answer arrived. */
  readonly status?: number;
  readonly text: string;
  /** The socket error, when the server closed the connection while the body was still going. */
  readonly error?: string;
  /** Whether every byte of the body was handed to the socket before the exchange ended. */
  readonly sentAll: boolean;
}

export interface LargeDelivery {
  /** `http://host:port/path` of the webhook endpoint. */
  readonly url: string;
  readonly bytes: number;
  /** Sent chunked, without Content-Length: the size is known only by reading. */
  readonly chunked: boolean;
  /** The secret the signature is made with: the App's for a valid one, any other for a forgery. */
  readonly secret: string;
}

const CHUNK = Buffer.alloc(1024 * 1024, 'x');

/**
 * Posts a `pull_request` delivery of `bytes` bytes of `x`, signed over exactly those bytes,
 * the way a hostile sender does: the whole body is written without waiting for an answer. The
 * body is one reused 1 MiB chunk, so the sender holds no copy of it: memory measured on the
 * server is the server's.
 */
export function postLargeDelivery(delivery: LargeDelivery): Promise<LargeDeliveryOutcome> {
  return startLargeDelivery({ ...delivery, holdAfter: delivery.bytes }).finish();
}

export interface HeldDelivery {
  /** Resolves once `holdAfter` bytes are written to the socket, or the exchange is over. */
  readonly held: Promise<void>;
  /** Writes the rest of the body; resolves with what the sender saw. */
  finish(): Promise<LargeDeliveryOutcome>;
}

/** A delivery that stops writing after `holdAfter` bytes until it is told to finish. */
export function startLargeDelivery(
  delivery: LargeDelivery & { readonly holdAfter: number },
): HeldDelivery {
  const signature = signRepeated(delivery.secret, delivery.bytes);
  let status: number | undefined;
  let text = '';
  let sentAll = false;
  let over = false;
  let holdAfter = delivery.holdAfter;
  let written = 0;
  let release: () => void = () => {};
  let write: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const outcome = new Promise<LargeDeliveryOutcome>((resolve) => {
    const settle = (error?: string) => {
      if (over) return;
      over = true;
      release();
      resolve({
        ...(status === undefined ? {} : { status }),
        text,
        sentAll,
        ...(error ? { error } : {}),
      });
    };
    const outgoing = request(
      delivery.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${signature}`,
          ...(delivery.chunked ? {} : { 'content-length': String(delivery.bytes) }),
        },
      },
      (response) => {
        status = response.statusCode;
        response.setEncoding('utf8');
        response.on('data', (part: string) => {
          text += part;
        });
        response.on('end', () => settle());
        response.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    write = () => {
      if (over) return;
      while (written < holdAfter) {
        const size = Math.min(holdAfter - written, CHUNK.length);
        written += size;
        if (!outgoing.write(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size))) {
          outgoing.once('drain', write);
          return;
        }
      }
      if (written < delivery.bytes) return release();
      outgoing.end(() => {
        sentAll = true;
      });
    };
    write();
  });
  return {
    held,
    finish() {
      holdAfter = delivery.bytes;
      write();
      return outcome;
    },
  };
}

/** The hex HMAC-SHA256 of `bytes` bytes of `x`. */
function signRepeated(secret: string, bytes: number): string {
  const hmac = createHmac('sha256', secret);
  for (let left = bytes; left > 0; left -= CHUNK.length)
    hmac.update(left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left));
  return hmac.digest('hex');
}
