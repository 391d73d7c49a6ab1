#!/usr/bin/env bash
# Runs one scripted scenario through kubectl and the official Python client
# against the reference server and a real kube-apiserver, normalises the
# answers, prints the differences and fails on any difference that
# docs/divergences.md does not list as accepted.
#
# The Python client lives in a virtualenv under the kubesdk cache (not the user
# or system site, whose packages it would otherwise upgrade), rebuilt whenever
# requirements.txt changes. The real apiserver binaries come from build.sh.
#
# Usage: cross-check.sh [--keep-going]   (see main.ts for flags)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cd "${repo_root}"

python="$(bash "${repo_root}/scripts/python-client/ensure-venv.sh")"

bash "${repo_root}/scripts/real-apiserver/build.sh"

export CROSS_CHECK_PYTHON="${python}"
# --conditions=source: @kubesdk/server resolves to its TypeScript sources, as in tests.
exec pnpm exec tsx --conditions=source "${here}/main.ts" "$@"
