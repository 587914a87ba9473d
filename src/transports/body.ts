/** Reads a request body up to a byte cap; never buffers past it. */
export type CappedBody = { kind: 'ok'; text: string } | { kind: 'too_large' } | { kind: 'unreadable' };

export async function readBodyCapped(request: Request, maxBytes: number): Promise<CappedBody> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: 'too_large' };
  }
  if (request.body === null) return { kind: 'ok', text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: 'too_large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'unreadable' };
  }
  return { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') };
}
