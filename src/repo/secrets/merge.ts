/**
 * Findings made into sorted, non-overlapping ranges, in time linear in the text and the findings (plus their sort).
 *
 * A rule may report a range that stops inside the secret (the preset's AWS secret-key rule reports the key's length
 * from the start of its label): each range is widened to the end of the run of token characters it ends in, so no
 * tail of a token is left. The run ends are found by one left-to-right walk over the findings sorted by end: a
 * character is looked at once at most, whatever the number of findings in one run (thousands of tokens joined by
 * `-` are one run). Overlapping or touching findings then become one, named by the widest.
 */

/** One finding: a half-open range of the scanned text and the kind of secret it holds. */
export interface SecretFinding {
  start: number;
  end: number;
  kind: string;
  /** The rule that found it. */
  rule: string;
}

/** Characters that continue a token (`A-Za-z0-9+/=_.~-`), by char code: a range ending inside one is widened. */
const TOKEN_CHAR = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.~-') {
  TOKEN_CHAR[char.charCodeAt(0)] = 1;
}

let steps = 0;

/** Characters the widening has looked at since the process started (tests count work with it, not time). */
export function mergeSteps(): number {
  return steps;
}

function isTokenChar(text: string, index: number): boolean {
  steps++;
  const code = text.charCodeAt(index);
  return code < 128 && TOKEN_CHAR[code] === 1;
}

/** Each finding clipped to the text and widened to the end of its token run (findings sorted by end). */
function widen(text: string, findings: readonly SecretFinding[]): SecretFinding[] {
  const byEnd = findings
    .map((finding) => ({
      ...finding,
      start: Math.max(0, finding.start),
      end: Math.min(finding.end, text.length),
    }))
    .filter((finding) => finding.end > finding.start)
    .sort((a, b) => a.end - b.end);
  // [runFrom, runEnd): a stretch of token characters already walked; any end inside it widens to runEnd.
  let runFrom = -1;
  let runEnd = -1;
  for (const finding of byEnd) {
    const end = finding.end;
    if (end >= text.length) continue;
    if (end > runFrom && end < runEnd) {
      finding.end = runEnd;
      continue;
    }
    // Sorted by end: a finding not inside the last run starts a walk where no earlier walk went.
    if (!isTokenChar(text, end - 1) || !isTokenChar(text, end)) continue;
    let at = end + 1;
    while (at < text.length && isTokenChar(text, at)) at++;
    runFrom = end - 1;
    runEnd = at;
    finding.end = at;
  }
  return byEnd;
}

/** Sorted, non-overlapping ranges: each widened to its token's end, overlapping or touching ones made one. */
export function mergeFindings(text: string, findings: readonly SecretFinding[]): SecretFinding[] {
  const widened = widen(text, findings).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const finding of widened) {
    const last = merged[merged.length - 1];
    if (last !== undefined && finding.start <= last.end) {
      if (finding.end > last.end) {
        if (finding.end - finding.start > last.end - last.start) last.kind = finding.kind;
        last.end = finding.end;
      }
    } else {
      merged.push({ ...finding });
    }
  }
  return merged;
}
