#!/usr/bin/env bash
# Developer build: compile the Cython extensions with the same CMakeLists.txt that
# `pip install .` uses and drop them into src/blitz_core/, linked as python/blitz_core,
# so that `PYTHONPATH=python` imports the fresh build.
#
#   scripts/dev_build.sh                 # every module
#   scripts/dev_build.sh engine bots     # only these modules (others keep their .so)
#   BUILD_DIR=build/mine scripts/dev_build.sh ...   # a private build tree
#   BLITZ_NATIVE=ON scripts/dev_build.sh            # -march=native
#
# A module's .so is copied only when its build succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
build=${BUILD_DIR:-build/dev}
cmake_dir=$("$py" -c 'import cython_cmake, os; print(os.path.join(os.path.dirname(cython_cmake.__file__), "cmake"))')
cmake -S . -B "$build" -G Ninja -DSKBUILD_PROJECT_NAME=tictacblitz \
      -DCMAKE_MODULE_PATH="$cmake_dir" -DPython_EXECUTABLE="$(command -v "$py")" \
      -DBLITZ_NATIVE="${BLITZ_NATIVE:-OFF}" >/dev/null
if [ $# -eq 0 ]; then
  cmake --build "$build"
  modules=$(cd "$build" && ls *.so | sed 's/\..*//')
else
  cmake --build "$build" --target $(printf 'blitz_%s ' "$@")
  modules="$*"
fi
for m in $modules; do
  for so in "$build"/"$m".*.so; do
    # Copy then rename: a running Python keeps the old file mapped (no crash).
    cp "$so" "src/blitz_core/.$(basename "$so").tmp"
    mv -f "src/blitz_core/.$(basename "$so").tmp" "src/blitz_core/$(basename "$so")"
  done
done
# PYTHONPATH=python then finds the native package too (a link that git ignores).
ln -sfn ../src/blitz_core python/blitz_core
echo "built: $modules"
