#!/usr/bin/env bash
# CI only: builds the Go programs later steps need, one after another, meant to run in the background
# at the lowest CPU priority (`nice -n 19`) from the start of .ci/run. Most CI steps leave a core idle
# (type checks are single-threaded; the leader and sharding suites mostly wait on leases), and a cold
# build needs ~25 min of CPU: built ahead, a step finds its program ready instead of building it then.
# Each build script takes a lock (scripts/ci/lib/build-lock.sh), so a step that needs a program still
# being built here waits for it. A failure here only prints: the step that needs the program runs the
# same build again and fails with its own output.
set -uo pipefail
cd "$(dirname "$0")/../.."

build() {
  local started=${SECONDS}
  echo "=== prebuild: $* ==="
  if "$@"; then
    echo "=== prebuild done in $((SECONDS - started)) s: $* ==="
  else
    echo "=== prebuild FAILED after $((SECONDS - started)) s: $* (its step builds it again) ==="
  fi
}

# In the order .ci/run needs them.
build bash scripts/real-apiserver/build.sh
build bash scripts/leader/build-client-go-candidate.sh
build bash scripts/conformance/build.sh
build bash scripts/real-apiserver/build.sh --k8s 1.36
build bash scripts/real-apiserver/build.sh --k8s 1.35
echo "=== prebuild: all done in ${SECONDS} s ==="
