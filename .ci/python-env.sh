#!/usr/bin/env bash
# Makes .venv at the repository root with the pinned pydraughts of
# tests/pydraughts/requirements.txt (only when it is missing or holds
# another version), then prints the path of its interpreter on stdout.
# Everything else goes to stderr, so that
#   TEMPO_PYTHON="$(bash .ci/python-env.sh)" cargo test
# works. Needs python3 with the venv module and access to the package index.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
requirements="$root/tests/pydraughts/requirements.txt"
venv="$root/.venv"
python="$venv/bin/python"
wanted="$(sed -n 's/^pydraughts==//p' "$requirements")"

installed() {
    "$python" -c 'import importlib.metadata as m, sys; print(m.version("pydraughts"))' 2>/dev/null || true
}

if [ ! -x "$python" ]; then
    python3 -m venv "$venv" >&2
fi
if [ "$(installed)" != "$wanted" ]; then
    "$python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
fi
if [ "$(installed)" != "$wanted" ]; then
    echo "python-env.sh: pydraughts $wanted could not be installed in $venv" >&2
    exit 1
fi
echo "$python"
