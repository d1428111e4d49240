#!/usr/bin/env bash
# Developer build: compile the Cython extensions with the same CMakeLists.txt that
# `pip install .` uses, and drop them next to the Python sources, so that
# `PYTHONPATH=python` (or an editable install) imports the fresh build.
# The .so files are copied only when the whole build succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
cmake_dir=$("$py" -c 'import cython_cmake, os; print(os.path.join(os.path.dirname(cython_cmake.__file__), "cmake"))')
cmake -S . -B build/dev -G Ninja -DSKBUILD_PROJECT_NAME=tictacblitz \
      -DCMAKE_MODULE_PATH="$cmake_dir" -DPython_EXECUTABLE="$(command -v "$py")" \
      -DBLITZ_NATIVE="${BLITZ_NATIVE:-OFF}" "$@" >/dev/null
cmake --build build/dev
cp build/dev/*.so src/blitz_core/
# PYTHONPATH=python then finds the native package too (a link that git ignores).
ln -sfn ../src/blitz_core python/blitz_core
echo "built: $(ls build/dev/*.so | xargs -n1 basename | tr '\n' ' ')"
