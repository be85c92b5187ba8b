#!/usr/bin/env bash
# Check the Binder configuration without Docker, and time it.
#
#   1. repo2docker reads the repository (`--no-build`): the Python of runtime.txt is picked up and
#      binder/requirements.txt is installed from the repository root after the repository is
#      copied (so its "." line is this checkout).
#   2. A fresh virtual environment, built only from binder/requirements.txt with the Python of
#      runtime.txt, passes `pip check`, has the widget and plotly JupyterLab extensions enabled,
#      imports ragnotebook from the install (not the checkout), and runs every notebook with
#      nbval. nbval and pytest are added afterwards, and the check fails if adding them changed
#      any package of the Binder environment.
#
# Usage: binder/check.sh          (from anywhere; exits non-zero on the first failure)
# Needs: the Python of runtime.txt (e.g. python3.11) on PATH and access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

REPO2DOCKER_VERSION=2026.4.0
NBVAL_VERSION=0.11.0
PYTEST_VERSION=9.2.0

export PIP_DISABLE_PIP_VERSION_CHECK=1
export LITELLM_LOCAL_MODEL_COST_MAP=True
start=$(date +%s)
step() { echo "binder-check [$(( $(date +%s) - start )) s] $*"; }
fail() { echo "binder-check: FAILED: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------- the Python of runtime.txt
runtime=$(tr -d '[:space:]' < binder/runtime.txt)
[[ $runtime =~ ^python-([0-9]+\.[0-9]+)$ ]] || fail "binder/runtime.txt must read python-X.Y, got '$runtime'"
want=${BASH_REMATCH[1]}
py=""
for candidate in "python$want" python3; do
  if command -v "$candidate" > /dev/null &&
     [ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$want" ]; then
    py=$(command -v "$candidate"); break
  fi
done
[ -n "$py" ] || fail "Python $want (from binder/runtime.txt) not found on PATH"
step "using $py for Python $want"

# ---------------------------------------------------------------- 1. repo2docker, no Docker
"$py" -m venv "$work/r2d"
"$work/r2d/bin/pip" install -q "jupyter-repo2docker==$REPO2DOCKER_VERSION"
"$work/r2d/bin/jupyter-repo2docker" --no-build --debug --user-id 1000 --user-name jovyan . \
  > "$work/dockerfile.txt" 2>&1 || { cat "$work/dockerfile.txt"; fail "repo2docker --no-build"; }
grep -q "Building conda environment for python=$want" "$work/dockerfile.txt" \
  || fail "repo2docker did not pick Python $want from runtime.txt"
copy_line=$(grep -n 'COPY --chown=1000:1000 src/ ${REPO_DIR}/' "$work/dockerfile.txt" | cut -d: -f1 | head -1)
pip_line=$(grep -n 'pip install --no-cache-dir -r "binder/requirements.txt"' "$work/dockerfile.txt" | cut -d: -f1 | head -1)
[ -n "$copy_line" ] && [ -n "$pip_line" ] && [ "$pip_line" -gt "$copy_line" ] \
  || fail "repo2docker must install binder/requirements.txt after copying the repository"
grep -q 'WORKDIR ${REPO_DIR}' "$work/dockerfile.txt" || fail "pip would not run from the repository root"
step "repo2docker --no-build: Python $want, requirements installed from the repository root"

# ---------------------------------------------------------------- 2. a fresh Binder-like venv
"$py" -m venv "$work/venv"
bin="$work/venv/bin"
"$bin/pip" install -q -r binder/requirements.txt
"$bin/pip" check
step "fresh venv from binder/requirements.txt: installed, pip check passed"

# every pin in requirements.txt is what got installed
"$bin/pip" freeze --exclude-editable | tr 'A-Z_' 'a-z-' | sort > "$work/freeze-before.txt"
grep -E '^[A-Za-z0-9_.-]+==' binder/requirements.txt | sed 's/[[:space:]]*#.*//' | tr 'A-Z_' 'a-z-' |
  while read -r pin; do
    grep -qx "$pin" "$work/freeze-before.txt" || fail "pin $pin not installed as pinned"
  done

# JupyterLab sees the extensions the views need
"$bin/jupyter" labextension list > "$work/labext.txt" 2>&1
for ext in "@jupyter-widgets/jupyterlab-manager" "jupyterlab-plotly"; do
  grep -E "^[[:space:]]+$ext .*enabled.*OK" "$work/labext.txt" > /dev/null \
    || { cat "$work/labext.txt"; fail "JupyterLab extension $ext missing or not OK"; }
done
step "JupyterLab extensions: widgets and plotly enabled"

# the notebooks import the installed package (with its data files), not this checkout
mkdir -p "$work/run"
cp notebooks/*.ipynb "$work/run/"
(cd "$work/run" && "$bin/python" - <<'EOF'
import sys, ragnotebook
assert ragnotebook.__file__.startswith(sys.prefix), ragnotebook.__file__
assert len(ragnotebook.load_sample("ragtruth_qa")) == 97
EOF
) || fail "ragnotebook is not importable from the Binder environment"

"$bin/pip" install -q "nbval==$NBVAL_VERSION" "pytest==$PYTEST_VERSION"
"$bin/pip" freeze --exclude-editable | tr 'A-Z_' 'a-z-' | sort > "$work/freeze-after.txt"
changed=$(comm -23 "$work/freeze-before.txt" "$work/freeze-after.txt")
[ -z "$changed" ] || fail "installing nbval changed the Binder environment: $changed"

# run the notebooks the way nbval runs them in CI, outside the checkout, without any key
(cd "$work/run" &&
  env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u RAGNOTEBOOK_MODEL -u JUDGE_API_BASE \
    RAGNOTEBOOK_CACHE="$work/judge_cache.sqlite3" \
    "$bin/python" -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env ./*.ipynb) \
  || fail "the notebooks did not run in the Binder environment"
step "notebooks ran with nbval in the Binder environment"

echo "binder-check: OK in $(( $(date +%s) - start )) s"
