/** The diffstat and the files by kind of change: what review_changes shows on every route, model or not. */
import type { DiffFile } from '../../entries/tool.js';
import { isTestPath, LOCKS } from './checks.js';

export type FileKind = 'source' | 'test' | 'docs' | 'config' | 'lock' | 'binary' | 'secret';

export function kindOf(file: Pick<DiffFile, 'path' | 'binary' | 'withheld'>): FileKind {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  if (file.withheld) return 'secret';
  if (file.binary) return 'binary';
  if (name in LOCKS) return 'lock';
  if (isTestPath(file.path)) return 'test';
  if (/\.(md|mdx|rst|txt|adoc)$/i.test(name) || /(^|\/)docs?\//.test(file.path)) return 'docs';
  if (/\.(json|ya?ml|toml|ini|cfg|conf|env\.example)$/i.test(name) || name.startsWith('.')) return 'config';
  return 'source';
}

export function diffstat(files: readonly DiffFile[]): string {
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  const byStatus = (['added', 'modified', 'deleted'] as const)
    .map((status) => [status, files.filter((file) => file.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  const kinds = new Map<FileKind, number>();
  for (const file of files) kinds.set(kindOf(file), (kinds.get(kindOf(file)) ?? 0) + 1);
  const byKind = [...kinds].map(([kind, count]) => `${kind} ${count}`);
  return (
    `${files.length} file${files.length === 1 ? '' : 's'} changed (+${added} -${removed}): ${byStatus.join(', ')}; ` +
    `by kind: ${byKind.join(', ')}`
  );
}

/** One line per file: status, counts, kind. */
export function fileLines(files: readonly DiffFile[], max = 200): string[] {
  const lines = files.slice(0, max).map((file) => {
    const counts = file.binary
      ? `binary${file.size !== undefined ? `, ${file.size} bytes` : ''}`
      : `+${file.added} -${file.removed}`;
    return `${file.status.padEnd(8)} ${file.path} (${counts}; ${kindOf(file)})`;
  });
  if (files.length > max) lines.push(`… and ${files.length - max} more files`);
  return lines;
}
