#!/usr/bin/env bash
# Runs the contract suites against a real kube-apiserver 1.37.1 + etcd: builds the
# binaries if they are missing (a cached build is reused), then starts ONE server
# for the whole run (run-tests.ts), runs vitest with KUBESDK_TEST_TARGET=real, stops
# the server whatever happens and exits with vitest's code. The last line reads
# "real-apiserver: N passed, N failed, N skipped".
#
# Usage: test-real.sh [test-file-glob ...] [-- extra vitest args]
#   globs are relative to the repository root; with none, runs contract_suites below.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cd "${repo_root}"

# Globs of every suite that takes its server from test/support/target.ts.
# Packages' own contract suites join this list as they appear.
contract_suites=("test/**/*.test.ts")

bash "${here}/build.sh"

if [[ $# -eq 0 || "$1" == "--" ]]; then
  exec pnpm exec tsx "${here}/run-tests.ts" "${contract_suites[@]}" "$@"
fi
exec pnpm exec tsx "${here}/run-tests.ts" "$@"
