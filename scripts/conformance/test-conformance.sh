#!/usr/bin/env bash
# pnpm test:conformance: builds (or reuses) the trimmed e2e.test and the real control-plane
# binaries, then runs the selected [Conformance] tests against the embedded server (default) or,
# with --real, against kube-apiserver. Other arguments go to run.ts (see its header).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cd "${repo_root}"
components_build="${repo_root}/scripts/real-apiserver/build.sh"
bash "${components_build}"
bash "${here}/build.sh"
exec node --conditions=source --import tsx "${here}/run.ts" \
  "$(bash "${here}/build.sh" --print-binary)" "$(bash "${components_build}" --print-bin-dir)" \
  --kubectl "$(bash "${here}/build.sh" --print-kubectl)" "$@"
