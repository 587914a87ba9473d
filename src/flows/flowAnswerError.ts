/**
 * A model answer the flow cannot use (not JSON, not an array, nothing valid left...).
 * The engine decides what it means on the wire: for a host answer it is the client's
 * malformed input (-32602); for a server-owned model it is a tool error.
 */
export class FlowAnswerError extends Error {
  override name = 'FlowAnswerError';
  readonly key: string;

  constructor(key: string, message: string) {
    super(message);
    this.key = key;
  }
}
