/**
 * The deterministic first pass of every ask_repo call: the survey's best candidates (listed, readable, ranked by
 * the repository's own signals), re-ranked by the question's terms in their paths and their first bytes.
 */
import type { ToolRepo } from '../../entries/tool.js';
import type { RankedPath } from './prompts.js';
import { questionTerms, scoreFile } from './terms.js';

/** Candidates whose first bytes are read to score their content, and how much of each. */
const SCORED_FILES = 120;
const SCORED_BYTES = 6 * 1024;
/** Candidates shown to the model. */
export const SHOWN_CANDIDATES = 60;

export interface Ranking {
  ranked: RankedPath[];
  /** Files the repository lists. */
  total: number;
}

export async function rankForQuestion(repo: ToolRepo, question: string): Promise<Ranking> {
  const terms = questionTerms(question);
  const survey = await repo.survey(undefined, { candidateBytes: 48 * 1024, facts: false });
  const pool = survey.candidates;
  const scored = pool.slice(0, SCORED_FILES);
  const read = await repo.read(
    scored.map((candidate) => candidate.path),
    { perFileBytes: SCORED_BYTES, totalBytes: SCORED_FILES * SCORED_BYTES, fileTokens: false },
  );
  const contents = new Map(read.files.map((file) => [file.path, file.content]));
  const ranked = pool.map((candidate, order) => ({
    path: candidate.path,
    size: candidate.size,
    hits: scoreFile(candidate.path, contents.get(candidate.path) ?? '', terms),
    order,
  }));
  // Matches first; among equals, the survey's own order (its ranking of the repository).
  ranked.sort((a, b) => b.hits - a.hits || a.order - b.order);
  return {
    ranked: ranked.slice(0, SHOWN_CANDIDATES).map(({ path, size, hits }) => ({ path, size, hits })),
    total: survey.total,
  };
}
