import { createHash } from 'node:crypto';

/**
 * Deterministic JSON: object keys sorted recursively (UTF-16 code unit order), no
 * whitespace, arrays in order, `undefined` object members dropped. Throws a
 * `TypeError` on values JSON cannot represent faithfully: non-finite numbers,
 * bigint, functions, symbols and cycles.
 */
export function canonicalJson(value: unknown): string {
  const out = encode(value, new Set<object>(), '$');
  if (out === undefined) {
    throw new TypeError('canonicalJson: top-level value is undefined');
  }
  return out;
}

/** Lowercase hex SHA-256 of `canonicalJson(args ?? {})`. */
export function digestArguments(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}), 'utf8')
    .digest('hex');
}

function encode(value: unknown, stack: Set<object>, path: string): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) {
        throw new TypeError(`canonicalJson: non-finite number at ${path}`);
      }
      return JSON.stringify(value);
    case 'bigint':
    case 'function':
    case 'symbol':
      throw new TypeError(`canonicalJson: cannot encode ${typeof value} at ${path}`);
    case 'object':
      break;
  }
  if (value === null) {
    return 'null';
  }
  const obj = value as object;
  if (stack.has(obj)) {
    throw new TypeError(`canonicalJson: cycle at ${path}`);
  }
  const withToJson = obj as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') {
    // Mirror JSON.stringify (e.g. Date): encode what toJSON returns.
    stack.add(obj);
    try {
      return encode((withToJson.toJSON as () => unknown).call(obj), stack, path);
    } finally {
      stack.delete(obj);
    }
  }
  stack.add(obj);
  try {
    if (Array.isArray(obj)) {
      const items = obj.map((item: unknown, i) => encode(item, stack, `${path}[${i}]`) ?? 'null');
      return `[${items.join(',')}]`;
    }
    const record = obj as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const encoded = encode(record[key], stack, `${path}.${key}`);
      if (encoded !== undefined) {
        members.push(`${JSON.stringify(key)}:${encoded}`);
      }
    }
    return `{${members.join(',')}}`;
  } finally {
    stack.delete(obj);
  }
}
