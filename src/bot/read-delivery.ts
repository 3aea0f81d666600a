import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * GitHub caps a webhook payload at 25 MB and delivers nothing bigger, so a bigger body is not
 * GitHub's. Read as MiB, the generous reading: a genuine delivery is never refused for its size.
 */
export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

/**
 * The body bytes the App holds at once, across every delivery not yet verified: four of
 * GitHub's largest. Genuine deliveries weigh kilobytes; without this bound, 24 forged bodies
 * just under the cap would take 600 MiB before any signature could be checked.
 */
export const MAX_UNVERIFIED_BYTES = 4 * MAX_DELIVERY_BYTES;

/** A delivery whose signature matched its bytes; its body, UTF-8 text, is not parsed yet. */
export interface Delivery {
  readonly id: string;
  readonly name: string;
  readonly body: string;
  readonly signature: string;
}

/** Why a request is not a delivery: the status and a short fixed text, safe to answer with. */
export interface Refusal {
  readonly status: 400 | 413 | 415 | 503;
  readonly text: string;
  /** The body was not read to its end: the connection is closed rather than drained. */
  readonly unread: boolean;
}

/** The count of unverified body bytes held across deliveries (MAX_UNVERIFIED_BYTES). */
export interface ByteBudget {
  /** Takes `bytes` if they fit; false, taking nothing, if they do not. */
  take(bytes: number): boolean;
  give(bytes: number): void;
}

export function byteBudget(limit: number): ByteBudget {
  let held = 0;
  return {
    take(bytes) {
      if (held + bytes > limit) return false;
      held += bytes;
      return true;
    },
    give(bytes) {
      held -= bytes;
    },
  };
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;

/**
 * Reads a webhook request the way an unauthenticated one must be read (THREATS rows 1, 36): the
 * headers first; then the body, never more than MAX_DELIVERY_BYTES of it (413 as soon as the
 * announced length or the bytes read pass it, without reading on) and never more than the
 * budget's share; the HMAC over the raw bytes as they arrive, compared in constant time; only a
 * matching body is decoded, as strict UTF-8. Nothing is parsed before the signature matches.
 */
export async function readDelivery(
  request: IncomingMessage,
  secret: string,
  budget: ByteBudget,
): Promise<Delivery | Refusal> {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  if (!JSON_TYPE.test(header('content-type') ?? ''))
    return refused(415, 'the content type must be application/json');
  const id = header('x-github-delivery');
  const name = header('x-github-event');
  const signature = header('x-hub-signature-256');
  if (id === undefined || name === undefined || signature === undefined)
    return refused(400, 'a GitHub webhook header is missing');
  const expected = SIGNATURE.exec(signature)?.[1];
  if (expected === undefined) return refused(400, 'the signature is not sha256=<hex>');
  if (Number(header('content-length') ?? 0) > MAX_DELIVERY_BYTES)
    return refused(413, 'the body is over 25 MiB');
  const read = await readBody(request, secret, budget);
  if ('status' in read) return read;
  try {
    if (!timingSafeEqual(read.digest, Buffer.from(expected, 'hex')))
      return readToTheEnd(400, 'the signature does not match the body');
    const body = strictUtf8(Buffer.concat(read.chunks, read.size));
    if (body === undefined) return readToTheEnd(400, 'the body is not UTF-8 text');
    return { id, name, body, signature };
  } finally {
    budget.give(read.size);
  }
}

interface ReadBody {
  readonly chunks: readonly Buffer[];
  readonly size: number;
  readonly digest: Buffer;
}

/**
 * The body's chunks and their HMAC, its bytes still counted in the budget (the caller gives
 * them back); or a refusal, once the body passes the cap or the budget is spent, or the sender
 * goes away.
 */
function readBody(
  request: IncomingMessage,
  secret: string,
  budget: ByteBudget,
): Promise<ReadBody | Refusal> {
  return new Promise((resolve) => {
    const hmac = createHmac('sha256', secret);
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = (status: Refusal['status'], text: string) => {
      stopReading();
      budget.give(size);
      resolve(refused(status, text));
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > MAX_DELIVERY_BYTES) return refuse(413, 'the body is over 25 MiB');
      if (!budget.take(chunk.length))
        return refuse(503, 'too many deliveries are being read; retry later');
      size += chunk.length;
      hmac.update(chunk);
      chunks.push(chunk);
    };
    const onEnd = () => {
      stopReading();
      resolve({ chunks, size, digest: hmac.digest() });
    };
    const onCut = () => refuse(400, 'the body was cut short');
    const stopReading = () => {
      request.off('data', onData).off('end', onEnd).off('error', onCut).off('close', onCut);
      // What was not read stays unread: the answer closes the connection.
      request.pause();
    };
    request.on('data', onData).on('end', onEnd).on('error', onCut).on('close', onCut);
  });
}

function strictUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function refused(status: Refusal['status'], text: string): Refusal {
  return { status, text, unread: true };
}

function readToTheEnd(status: Refusal['status'], text: string): Refusal {
  return { status, text, unread: false };
}
