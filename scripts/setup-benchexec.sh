#!/usr/bin/env bash
# Installs BenchExec, pinned to an exact version with its one dependency, into a virtual
# environment under target/ (ignored by git), for contrib/benchexec/ and
# scripts/test-benchexec.sh. Idempotent: a second run installs nothing.
# Usage: scripts/setup-benchexec.sh        (PYTHON=python3.11 picks another interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."

BENCHEXEC_VERSION=3.35   # the newest release on PyPI; needs Python >= 3.10
PYYAML_VERSION=6.0.4     # BenchExec's only required dependency
VENV=target/benchexec-venv
PYTHON=${PYTHON:-python3}

log() { printf '[setup-benchexec] %s\n' "$*" >&2; }

installed() {
  "$VENV/bin/python" - "$BENCHEXEC_VERSION" "$PYYAML_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if (version("BenchExec"), version("PyYAML")) == (sys.argv[1], sys.argv[2]) else 1)
EOF
}

if [ -x "$VENV/bin/python" ] && installed; then
  log "ready (BenchExec $BENCHEXEC_VERSION in $VENV)"
  exit 0
fi

# Debian's python3 makes virtual environments only with python3-venv (ensurepip); its version
# always equals python3's.
if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  want=$(dpkg-query -W -f='${Version}' python3 2>/dev/null || true)
  [ -n "$want" ] || { log "$PYTHON cannot create virtual environments (no ensurepip)"; exit 1; }
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  log "apt: installing python3-venv=$want"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "python3-venv=$want"
fi

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c '' 2>/dev/null; then
  log "creating $VENV with $("$PYTHON" --version)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
log "pip: installing BenchExec==$BENCHEXEC_VERSION PyYAML==$PYYAML_VERSION"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-input \
  "BenchExec==$BENCHEXEC_VERSION" "PyYAML==$PYYAML_VERSION"
installed || { log "the installed versions do not match the pins"; exit 1; }
log "ready (BenchExec $BENCHEXEC_VERSION in $VENV)"
