/**
 * `mcp-model-input migrate DIR`: rewrites a server's sampling tool handlers onto the kit. Prints the unified diff
 * and the report, or with --write edits the files in place (in a clean git work tree, or with --force).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { ModelInputError } from '../errors.js';
import { uncleanWorkTree } from '../migrate/gitState.js';
import { migrateDirectory } from '../migrate/migrateDirectory.js';
import { renderReportJson, renderReportText } from '../migrate/renderReport.js';
import { typeCheck } from '../migrate/typeCheck.js';
import { unifiedDiff } from '../migrate/unifiedDiff.js';
import { parseCommandArgs, resolveDirectory } from './args.js';
import { writeLine, type CliIo } from './io.js';
import { MIGRATE_USAGE } from './usage.js';

export async function runMigrate(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('migrate', argv, {
    write: { type: 'boolean' },
    json: { type: 'boolean' },
    force: { type: 'boolean' },
    check: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    writeLine(io.stdout, MIGRATE_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new ModelInputError('usage', 'migrate: expects one DIR (see --help)');
  if (values.force === true && values.write !== true)
    throw new ModelInputError('usage', 'migrate: --force goes with --write');
  const root = await resolveDirectory('migrate', positionals[0]);
  const { report, changes } = await migrateDirectory(root);
  if (values.check === true && changes.length > 0) report.check = typeCheck(root, changes);
  if (values.write === true && changes.length > 0) {
    const unclean = values.force === true ? undefined : await uncleanWorkTree(root);
    if (unclean !== undefined) {
      writeLine(
        io.stderr,
        `mcp-model-input: migrate: not writing to ${positionals[0]}: ${unclean} (commit first, or pass --force)`,
      );
      return 1;
    }
    for (const change of changes) await writeFile(join(root, change.path), change.after);
    report.written = true;
  }
  if (values.json === true) io.stdout.write(renderReportJson(report));
  else {
    if (!report.written)
      for (const change of changes) io.stdout.write(unifiedDiff(change.path, change.before, change.after));
    io.stdout.write(renderReportText(report));
  }
  return report.check?.ok === false ? 1 : 0;
}
