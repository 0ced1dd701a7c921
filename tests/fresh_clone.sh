#!/usr/bin/env bash
# Clone this repository's HEAD into an empty temporary folder, with nothing beside it, and run
# `make test` there: what a stranger gets from `git clone` must pass on its own.
# Usage: bash tests/fresh_clone.sh   (or `make fresh-clone`); KEEP=1 keeps the folder.
set -euo pipefail
source_repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
head="$(git -C "$source_repo" rev-parse --short HEAD)"
parent="$(mktemp -d)"
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$parent"' EXIT; fi
git clone --quiet --no-local "$source_repo" "$parent/clone"
git -C "$parent/clone" checkout --quiet "$head"
echo "fresh-clone: $head in $parent/clone; beside it: $(ls -A "$parent" | tr '\n' ' ')"
if [ -n "$(git -C "$source_repo" status --porcelain)" ]; then
    echo "fresh-clone: note: uncommitted changes in $source_repo are not part of this run"
fi
cd "$parent/clone"
start=$(date +%s)
make test
echo "fresh-clone: make test passed in a fresh clone of $head in $(( $(date +%s) - start )) s"
