#!/usr/bin/env bash
# The Python package (python/): installed with pip (maturin builds it) into
# the virtualenv of python-env.sh, then its pytest suite, run with the tempo
# binary that `cargo test` built for the cross-checks (TEMPO_BIN to use
# another). Fails when pytest fails, or collects no test at all.
#
# The build here skips link-time optimisation (CARGO_PROFILE_PYTHON_*):
# CI checks what the package does, and a fat-LTO build of the crate takes
# minutes more on 2 cores. The speed figures of benches/tools.md are
# taken on the full `python` profile, the one `pip install ./python` uses.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(bash "$root/.ci/python-env.sh")"
pip=("$python" -m pip --quiet --disable-pip-version-check)

"${pip[@]}" install "pytest>=7"
CARGO_PROFILE_PYTHON_LTO=false CARGO_PROFILE_PYTHON_CODEGEN_UNITS=16 \
    "${pip[@]}" install --force-reinstall --no-deps "$root/python"

# From the root, so that the source folder python/tempo (no native module
# in a fresh checkout) cannot shadow the installed package.
cd "$root"
status=0
TEMPO_BIN="${TEMPO_BIN:-$root/target/debug/tempo}" TEMPO_REQUIRE_CLI=1 \
    "$python" -m pytest -p no:cacheprovider -q python/tests || status=$?
if [ "$status" -eq 5 ]; then
    echo "python-package.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
