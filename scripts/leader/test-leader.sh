#!/usr/bin/env bash
# pnpm test:leader [--real] [--repeat N]: the cross-process leader-election suite
# (test/controller/leader-processes.test.ts) with its SIGSTOP, SIGKILL and faulted-Lease cases run
# N times each (default 10), on the embedded reference server or, with --real, on kube-apiserver
# through scripts/real-apiserver/test-real.sh (the fault cases need the reference server's fault
# controls; on the real server the SIGSTOP case is the stalled leader).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repeat=10
real=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --real) real=true ;;
    --repeat) repeat="$2"; shift ;;
    *) echo "usage: test-leader.sh [--real] [--repeat N]" >&2; exit 2 ;;
  esac
  shift
done
export KUBESDK_LEADER_REPEAT="${repeat}"
# The client-go candidate, built (or found in the cache) before the clock of any test starts.
KUBESDK_CLIENT_GO_LEADER="$(bash scripts/leader/build-client-go-candidate.sh)"
export KUBESDK_CLIENT_GO_LEADER
if [[ "${real}" == true ]]; then
  exec bash scripts/real-apiserver/test-real.sh test/controller/leader-processes.test.ts
fi
exec pnpm exec vitest run test/controller/leader-processes.test.ts
