/**
 * A server's HTTP answers are untrusted input too: the SDK reads a response body whole, so without
 * a cap one answer could take all the host's memory. This wraps `fetch` so that a body (JSON or an
 * SSE stream) larger than the cap fails while it is read, before it is buffered. A declared
 * `Content-Length` above the cap fails at once.
 */
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export const DEFAULT_MAX_RESPONSE_BODY_BYTES = 32 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
  constructor(readonly limit: number) {
    super(`the server's HTTP response is larger than the host reads (${limit} bytes)`);
  }
}

export function createCappedFetch(inner: Fetch, maxBytes: number = DEFAULT_MAX_RESPONSE_BODY_BYTES): Fetch {
  return async (url, init) => {
    const response = await inner(url, init);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new ResponseTooLargeError(maxBytes);
    }
    if (response.body === null) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
