#!/usr/bin/env bash
# eval/fetch.sh DIR [MIRRORS]: one checkout per repository of eval/expectations.json under DIR, named
# owner--name, at the commit the expectations name. A repository is read from MIRRORS/owner+name (a bare git
# directory, or one holding repo/ or repo/.git) when there, else cloned from GitHub. Blobs a mirror lacks
# (large files left out of a snapshot) are skipped. Checkouts already under DIR are kept.
set -euo pipefail
dir=${1:?usage: eval/fetch.sh DIR [MIRRORS]}
mirrors=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"

gitdir_of() {
  local base=$1
  for candidate in "$base/repo/.git" "$base/repo" "$base"; do
    if [[ -f "$candidate/HEAD" && -d "$candidate/objects" ]]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

node -e '
  const { repositories } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const r of repositories) console.log(`${r.repo} ${r.commit}`);
' "$here/expectations.json" | while read -r repo commit; do
  out="$dir/${repo/\//--}"
  [[ -d "$out" ]] && continue
  gitdir=""
  if [[ -n "$mirrors" ]]; then gitdir=$(gitdir_of "$mirrors/${repo/\//+}" || true); fi
  if [[ -z "$gitdir" ]]; then
    gitdir="$dir/.git-$(echo "$repo" | tr / +)"
    [[ -d "$gitdir" ]] || git clone --quiet --bare --filter=blob:limit=4m "https://github.com/$repo" "$gitdir"
  fi
  scratch=$(mktemp -d)
  index=$scratch/index
  tree=$(mktemp)
  git --git-dir="$gitdir" ls-tree -r "$commit" | awk '$2 == "blob"' >"$tree"
  # the commit's tree, without the blobs this git directory does not hold
  awk '{ print $3 }' "$tree" | git --git-dir="$gitdir" cat-file --batch-check |
    awk 'NR == FNR { if ($2 == "missing") gone[$1] = 1; next } !($3 in gone)' - "$tree" |
    GIT_INDEX_FILE=$index git --git-dir="$gitdir" update-index --index-info
  rm -f "$tree"
  mkdir -p "$out"
  GIT_INDEX_FILE=$index git --git-dir="$gitdir" checkout-index -a --prefix="$out/"
  rm -rf "$scratch"
  echo "$repo $commit -> $out"
done
