/**
 * `migrate DIR`: every TypeScript file under DIR analysed, the rewritable handlers rewritten onto the kit, the
 * result formatted with the project's Prettier settings, and the report of every sampling call site. Nothing is
 * written here: the caller prints the diff or writes the changes.
 */
import { analyzeFile, type FileAnalysis, type SiteAnalysis } from './analyzeFile.js';
import { projectFormatter } from './formatSource.js';
import { rewriteFile } from './rewriteFile.js';
import { loadSources } from './sourceFiles.js';
import type { CallSiteReport, MigrateReport } from './types.js';

export interface FileChange {
  /** Relative to the directory given, with `/`. */
  path: string;
  before: string;
  after: string;
}

export interface MigrateResult {
  report: MigrateReport;
  changes: FileChange[];
  analyses: FileAnalysis[];
}

function siteReport(site: SiteAnalysis, tool: string | undefined): CallSiteReport {
  return {
    status: site.status,
    kind: site.sampling.kind,
    location: site.location,
    ...(tool !== undefined && { tool }),
    ...(site.step !== undefined && { step: site.step }),
    reason: site.reason,
  };
}

/** Marks every site of the file's rewritable handlers as not rewritten, for a file-level reason. */
function abandon(analysis: FileAnalysis, reason: string): void {
  for (const handler of analysis.handlers) {
    if (!handler.rewritable) continue;
    handler.rewritable = false;
    for (const site of handler.sites) {
      site.status = 'unsupported';
      site.reason = reason;
      delete site.step;
    }
  }
}

export async function migrateDirectory(root: string): Promise<MigrateResult> {
  const sources = await loadSources(root);
  const formatter = await projectFormatter(root);
  const analyses: FileAnalysis[] = [];
  const changes: FileChange[] = [];
  const notes: string[] = [];
  for (const [path, file] of sources.files) {
    const analysis = analyzeFile(path, file);
    if (analysis.handlers.length === 0 && analysis.loose.length === 0) continue;
    analyses.push(analysis);
    if (!analysis.handlers.some((handler) => handler.rewritable)) continue;
    const outcome = rewriteFile(analysis);
    if ('problem' in outcome) {
      abandon(analysis, outcome.problem);
      continue;
    }
    notes.push(...outcome.notes);
    const before = file.getFullText();
    changes.push({ path, before, after: await formatter.format(path, outcome.text) });
  }
  notes.push(...formatter.notes());
  const callSites = analyses.flatMap((analysis) =>
    [
      ...analysis.handlers.flatMap((handler) =>
        handler.sites.map((site) => siteReport(site, handler.registration.name)),
      ),
      ...analysis.loose.map((site) => siteReport(site, undefined)),
    ].sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column),
  );
  const report: MigrateReport = {
    format: 'mcp-model-input/migrate@1',
    callSites,
    problems: sources.problems,
    changedFiles: changes.map((change) => change.path),
    notes,
    written: false,
  };
  return { report, changes, analyses };
}
