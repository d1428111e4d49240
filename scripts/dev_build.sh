#!/usr/bin/env bash
# Developer build: compile the Cython extensions with the same CMakeLists.txt that
# `pip install .` uses and drop them into src/blitz_core/, linked as python/blitz_core,
# so that `PYTHONPATH=python` imports the fresh build.
#
#   scripts/dev_build.sh                 # every module
#   scripts/dev_build.sh blitz_engine blitz_bots   # only these targets (<game>_<module>)
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
#   scripts/dev_build.sh blitz_engine   # targets are <game>_<module>
if [ $# -eq 0 ]; then
  cmake --build "$build"
  wanted=$(cd "$build" && ls -d */*.so | sed 's/\..*//' | sed 's#/#_#')
else
  # cyutility: Cython's shared utility module, which every module imports (CMakeLists.txt).
  cmake --build "$build" --target cyutility "$@"
  wanted="$*"
fi
built=""
# install_module SO DEST NAME: copy a built module into src/ when it changed. Copy then
# rename: a running Python keeps the old file mapped (no crash).
install_module() {
  if [ ! -e "$2" ] || ! cmp -s "$1" "$2"; then
    cp "$1" "$2.tmp"
    mv -f "$2.tmp" "$2"
    built="$built $3"
  fi
}
for so in "$build"/_cyutility.*.so; do
  install_module "$so" "src/blitz_core/$(basename "$so")" _cyutility
done
for target in $wanted; do
  game=${target%%_*}
  module=${target#*_}
  for so in "$build/$game/$module".*.so; do
    [ -e "$so" ] || continue
    install_module "$so" "src/blitz_core/$game/$(basename "$so")" "$game/$module"
  done
done
# PYTHONPATH=python then finds the native package too (a link that git ignores).
ln -sfn ../src/blitz_core python/blitz_core
echo "updated:${built:- nothing}"
