#!/usr/bin/env bash
# Creates (once, and again whenever the requirements change) a virtualenv holding the official
# Python client pinned in scripts/cross-check/requirements.txt, and prints its python's path.
# A virtualenv under the kubesdk cache, not the user or system site, whose packages it would upgrade.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
requirements="${repo_root}/scripts/cross-check/requirements.txt"
venv="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}/cross-check/venv"
stamp="$(sha256sum "${requirements}" | cut -c1-16)"
if [[ ! -x "${venv}/bin/python" || "$(cat "${venv}/.requirements-stamp" 2>/dev/null)" != "${stamp}" ]]; then
  echo "python-client: installing the Python client from ${requirements} into ${venv}" >&2
  rm -rf "${venv}"
  python3 -m venv "${venv}"
  "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check -r "${requirements}" >&2
  echo "${stamp}" > "${venv}/.requirements-stamp"
fi
echo "${venv}/bin/python"
