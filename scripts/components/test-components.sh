#!/usr/bin/env bash
# pnpm test:components: builds (or reuses) kube-apiserver, etcd, kube-controller-manager and
# kube-scheduler, then runs the components scenarios against the reference server and the
# real kube-apiserver. Usage: test-components.sh [reference|real|both]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cd "${repo_root}"
build="${repo_root}/scripts/real-apiserver/build.sh"
bash "${build}"
exec node --conditions=source --import tsx "${here}/run.ts" "$(bash "${build}" --print-bin-dir)" "${1:-both}"
