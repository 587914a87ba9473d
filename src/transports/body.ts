/**
 * Reading a request body within four bounds: its own size cap, a process-wide budget of body bytes being
 * buffered at once (so a thousand stalled bodies cannot take the memory), a read deadline (so a body that
 * trickles in cannot hold its share of the budget for long), and for a chunked body a cap on its pieces (so that
 * what a body costs to receive, not only its bytes, is bounded).
 *
 * Nothing here cancels the request's stream: on a Node socket that destroys the connection before the error
 * response is written. The front answers early instead with `Connection: close` (transports/http.ts).
 */
export type CappedBody =
  | { kind: 'ok'; text: string }
  | { kind: 'too_large' }
  | { kind: 'unreadable' }
  /** The process-wide budget of body bytes in flight is spent: retry later. */
  | { kind: 'busy' }
  /** The body did not arrive within the read deadline. */
  | { kind: 'timeout' }
  /** The body came in more pieces than its size allows ({@link maxChunksFor}): each piece costs far more than its bytes. */
  | { kind: 'too_fragmented' };

/**
 * A body read as a stream (chunked) may come in this many pieces whatever its size, plus one per
 * {@link MIN_AVERAGE_CHUNK_BYTES} bytes. Each piece costs a buffer, a stream read and a promise — hundreds of bytes
 * and a turn of the stream machinery for one byte of body — so 1-byte chunks would cost gigabytes and seconds of
 * event loop for a 1 MiB body. A real client's pieces are its writes or the network's segments (about 1,460 bytes
 * or more each): far inside the allowance.
 */
export const FREE_CHUNKS = 1024;
export const MIN_AVERAGE_CHUNK_BYTES = 256;

/** The pieces a chunked body of `bytes` bytes so far may have come in. */
export function maxChunksFor(bytes: number): number {
  return FREE_CHUNKS + Math.floor(bytes / MIN_AVERAGE_CHUNK_BYTES);
}

/** A chunked body is copied into one buffer as it arrives (the pieces are dropped at once); it starts this large. */
const INITIAL_BUFFER_BYTES = 16 * 1024;

/** Bodies up to this size are small: a share of the budget is kept for them. */
export const SMALL_BODY_BYTES = 64 * 1024;
/** The share of the budget large bodies may never take, so that ordinary requests get through while they stall. */
const SMALL_BODY_SHARE = 1 / 8;

/** The process-wide count of request-body bytes buffered or reserved, with a ceiling. */
export interface BodyBudget {
  readonly maxBytes: number;
  readonly inFlight: number;
  /**
   * Takes `bytes` from the budget for a body of `bodyBytes` so far (or declared); false (and nothing taken) when
   * they do not fit. A body larger than {@link SMALL_BODY_BYTES} may use all but an eighth of the budget.
   */
  reserve(bytes: number, bodyBytes?: number): boolean;
  release(bytes: number): void;
}

export function createBodyBudget(maxBytes: number): BodyBudget {
  let inFlight = 0;
  const largeLimit = Math.floor(maxBytes * (1 - SMALL_BODY_SHARE));
  return {
    maxBytes,
    get inFlight() {
      return inFlight;
    },
    reserve(bytes, bodyBytes = bytes) {
      const limit = bodyBytes > SMALL_BODY_BYTES ? largeLimit : maxBytes;
      if (inFlight + bytes > limit) return false;
      inFlight += bytes;
      return true;
    },
    release(bytes) {
      inFlight = Math.max(0, inFlight - bytes);
    },
  };
}

export interface BodyReadOptions {
  /** The shared budget; without one only `maxBytes` bounds the read. */
  budget?: BodyBudget;
  /** Deadline for the whole body, in milliseconds (default: none). */
  timeoutMs?: number;
}

/** A body read: its outcome, and the function that gives its reserved bytes back (call it once, when done). */
export interface BodyRead {
  body: CappedBody;
  release(): void;
}

const TIMED_OUT = Symbol('timed out');

/**
 * A body with a declared length, read whole: HTTP framing delivers at most that many bytes (checked against the cap
 * and reserved in the budget before this), so it need not be counted chunk by chunk. Read with `arrayBuffer()`, which
 * the Node adapter serves straight from the socket's buffers, without a web stream or a full `Request` per request
 * (the cost of every request a burst brings, refused or not). A body longer than declared is refused all the same.
 */
async function readDeclared(
  request: Request,
  declared: number,
  maxBytes: number,
  deadline: Promise<typeof TIMED_OUT> | undefined,
  stop: () => void,
): Promise<CappedBody> {
  const read = request.arrayBuffer();
  try {
    const result = deadline === undefined ? await read : await Promise.race([read, deadline]);
    if (result === TIMED_OUT) {
      read.catch(() => {});
      return { kind: 'timeout' };
    }
    if (result.byteLength > declared || result.byteLength > maxBytes) return { kind: 'too_large' };
    return { kind: 'ok', text: Buffer.from(result).toString('utf8') };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    stop();
  }
}

export async function readBodyCapped(
  request: Request,
  maxBytes: number,
  options: BodyReadOptions = {},
): Promise<BodyRead> {
  const { budget } = options;
  let reserved = 0;
  const release = (): void => {
    budget?.release(reserved);
    reserved = 0;
  };
  const take = (bytes: number, bodyBytes: number): boolean => {
    if (budget === undefined) return true;
    if (!budget.reserve(bytes, bodyBytes)) return false;
    reserved += bytes;
    return true;
  };
  const done = (body: CappedBody): BodyRead => {
    if (body.kind !== 'ok') release();
    return { body, release };
  };

  const header = Number(request.headers.get('content-length') ?? NaN);
  const declared = Number.isSafeInteger(header) && header >= 0 ? header : NaN;
  if (declared > maxBytes) return done({ kind: 'too_large' });
  if (declared === 0) return done({ kind: 'ok', text: '' });
  // A declared length is reserved up front: a body that cannot fit is refused before a byte is buffered.
  if (declared > 0 && !take(declared, declared)) return done({ kind: 'busy' });
  const prepaid = reserved;

  let timer: NodeJS.Timeout | undefined;
  const deadline =
    options.timeoutMs === undefined
      ? undefined
      : new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), options.timeoutMs);
          timer.unref?.();
        });
  if (declared > 0) return done(await readDeclared(request, declared, maxBytes, deadline, () => clearTimeout(timer)));
  // Asked only without a declared length: on the Node adapter's request, `body` builds a web stream and a full
  // `Request`, which a body of declared length never needs (readDeclared).
  if (request.body === null) {
    clearTimeout(timer);
    return done({ kind: 'ok', text: '' });
  }
  const reader = request.body.getReader();
  // The pieces are copied into one buffer, grown by doubling up to the cap: only bytes are held, never the pieces.
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes, INITIAL_BUFFER_BYTES));
  let total = 0;
  let chunks = 0;
  try {
    for (;;) {
      const next = reader.read();
      const result = deadline === undefined ? await next : await Promise.race([next, deadline]);
      if (result === TIMED_OUT) {
        next.catch(() => {});
        return done({ kind: 'timeout' });
      }
      const { done: ended, value } = result;
      if (ended) break;
      const before = total;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.releaseLock();
        return done({ kind: 'too_large' });
      }
      if (++chunks > maxChunksFor(total)) {
        reader.releaseLock();
        return done({ kind: 'too_fragmented' });
      }
      // Bytes past a declared length (or of a chunked body) are reserved as they arrive.
      if (total > prepaid && !take(total - Math.max(prepaid, before), total)) {
        reader.releaseLock();
        return done({ kind: 'busy' });
      }
      if (total > buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(total, buffer.length * 2)));
        buffer.copy(grown, 0, 0, before);
        buffer = grown;
      }
      buffer.set(value, before);
    }
  } catch {
    return done({ kind: 'unreadable' });
  } finally {
    clearTimeout(timer);
  }
  return done({ kind: 'ok', text: buffer.toString('utf8', 0, total) });
}
