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

requirements="${here}/requirements.txt"
venv="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}/cross-check/venv"
stamp="$(sha256sum "${requirements}" | cut -c1-16)"
if [[ ! -x "${venv}/bin/python" || "$(cat "${venv}/.requirements-stamp" 2>/dev/null)" != "${stamp}" ]]; then
  echo "cross-check: installing the Python client from ${requirements} into ${venv}"
  rm -rf "${venv}"
  python3 -m venv "${venv}"
  "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check -r "${requirements}"
  echo "${stamp}" > "${venv}/.requirements-stamp"
fi

bash "${repo_root}/scripts/real-apiserver/build.sh"

export CROSS_CHECK_PYTHON="${venv}/bin/python"
# --conditions=source: @kubesdk/server resolves to its TypeScript sources, as in tests.
exec pnpm exec tsx --conditions=source "${here}/main.ts" "$@"
