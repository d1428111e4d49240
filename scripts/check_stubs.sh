#!/usr/bin/env bash
# The .pyi stubs of the native modules against the compiled modules (mypy's stubtest):
# every name, signature and attribute the stubs declare must exist at run time, and
# every public name at run time must be in the stubs. The stubs are read from src/
# (MYPYPATH); the modules are imported from the installed package, or from the dev
# build with PYTHONPATH=python (scripts/dev_build.sh). Differences that are genuine are
# listed, each with its reason, in scripts/stubtest_allowlist.txt.
#
#   scripts/check_stubs.sh                        # every native module that has a stub
#   PYTHONPATH=python scripts/check_stubs.sh      # against the dev build
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
modules=()
for stub in src/blitz_core/*/*.pyi; do
  rel=${stub#src/}
  modules+=("$(echo "${rel%.pyi}" | tr / .)")
done
# A compiled module without a stub is an error too: a game's native core ships its types.
missing=""
for so in $("$py" -c 'import blitz_core, os; print(os.path.dirname(blitz_core.__file__))')/*/*.so; do
  game=$(basename "$(dirname "$so")")
  name=$(basename "$so" | sed 's/\..*//')
  [ -e "src/blitz_core/$game/$name.pyi" ] || missing="$missing blitz_core.$game.$name"
done
if [ -n "$missing" ]; then
  echo "native modules without a .pyi stub:$missing" >&2
  exit 1
fi
MYPYPATH=src "$py" -m mypy.stubtest \
  --allowlist scripts/stubtest_allowlist.txt "${modules[@]}"
