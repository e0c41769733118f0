#!/usr/bin/env bash
# Installs everything the build and the tests need, pinned to exact versions.
# Idempotent: a second run installs nothing. Usage: scripts/setup.sh [--native-only|--npm-only]
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.129   # must equal the wasm-bindgen crate pinned in web/Cargo.toml
TRUNK_VERSION=0.21.14          # trunk 0.22 needs rustc 1.96 (FACTS.md)
APT_PINS=(
  "z3=4.8.12-3.1"
)
# Chromium for the browser tests, pinned with its chromium-common. Debian replaces these
# versions (the security archive keeps only its newest, a point release replaces the main
# archive's), so the first of these versions the archive still has is installed; any of them
# already installed is accepted. The bookworm point-release version comes first: it rotates
# out less often than the security archive's.
CHROMIUM_VERSIONS=(
  "150.0.7871.100-1~deb12u1"
  "156.0.8078.108-1~deb12u1"
  "156.0.8078.79-1~deb12u1"
)

# Z3 for the native runs: the version the browser's z3-solver@5.2.0 is built from, so that a
# run natively and one in the page ask the same solver (Debian's 4.8.12 hangs in `qe` past its
# resource limit where 5.1.0 does not: fuzz finding 4358). The binary of PyPI's z3-solver wheel,
# pinned by its hash, unpacked to target/z3-$Z3_VERSION/bin/z3, where `cpa` looks for it.
Z3_VERSION=5.1.0
Z3_WHEEL=z3_solver-${Z3_VERSION}.0-py3-none-manylinux_2_27_x86_64.whl
Z3_WHEEL_SHA256=dfad9e309d7010b1ff6bdb33f21570a1603ef4727373221c7117a74448f0cfef
Z3_DIR=target/z3-$Z3_VERSION

log() { printf '[setup] %s\n' "$*" >&2; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

have_deb() { # name=version
  local name=${1%%=*} want=${1#*=}
  [ "$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null)" = "install ok installed $want" ]
}

apt_install() {
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@"
}

install_apt() {
  local missing=() updated=0
  for p in "${APT_PINS[@]}"; do have_deb "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    log "apt: installing ${missing[*]}"
    $SUDO apt-get update -qq; updated=1
    apt_install "${missing[@]}"
  fi
  local v
  for v in "${CHROMIUM_VERSIONS[@]}"; do
    have_deb "chromium=$v" && return 0
  done
  [ $updated -eq 1 ] || $SUDO apt-get update -qq
  for v in "${CHROMIUM_VERSIONS[@]}"; do
    if apt-cache show "chromium=$v" >/dev/null 2>&1 && apt-cache show "chromium-common=$v" >/dev/null 2>&1; then
      log "apt: installing chromium $v"
      apt_install "chromium=$v" "chromium-common=$v"
      return 0
    fi
  done
  log "apt: none of the pinned chromium versions (${CHROMIUM_VERSIONS[*]}) is in the archive"
  return 1
}

install_z3() {
  if [ "$("$Z3_DIR/bin/z3" --version 2>/dev/null || true)" = "Z3 version $Z3_VERSION - 64 bit" ]; then
    return 0
  fi
  local dl=target/z3-download
  mkdir -p "$dl"
  if [ "$(sha256sum "$dl/$Z3_WHEEL" 2>/dev/null | cut -d' ' -f1)" != "$Z3_WHEEL_SHA256" ]; then
    log "pip: downloading z3-solver ${Z3_WHEEL#z3_solver-} (Z3 $Z3_VERSION)"
    rm -f "$dl/$Z3_WHEEL"
    # Debian's python3 has no pip: then the one of BenchExec's virtual environment.
    local py=python3
    if ! python3 -m pip --version >/dev/null 2>&1; then
      scripts/setup-benchexec.sh
      py=target/benchexec-venv/bin/python
    fi
    "$py" -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_27_x86_64 \
      --python-version 3.11 "z3-solver==${Z3_VERSION}.0" -d "$dl"
  fi
  if [ "$(sha256sum "$dl/$Z3_WHEEL" | cut -d' ' -f1)" != "$Z3_WHEEL_SHA256" ]; then
    log "$dl/$Z3_WHEEL does not have the pinned sha256 $Z3_WHEEL_SHA256"
    return 1
  fi
  python3 - "$dl/$Z3_WHEEL" "z3_solver-${Z3_VERSION}.0.data/data/bin/z3" "$Z3_DIR/bin/z3" <<'PY'
import os, sys, zipfile
wheel, member, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(os.path.dirname(out), exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    data = z.read(member)
with open(out + ".new", "wb") as f:
    f.write(data)
os.chmod(out + ".new", 0o755)
os.replace(out + ".new", out)
PY
  log "z3: $("$Z3_DIR/bin/z3" --version) in $Z3_DIR"
}

install_rust_tools() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "rustup: adding wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    log "cargo: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
    cargo install --locked --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
    log "cargo: installing trunk $TRUNK_VERSION"
    cargo install --locked --force trunk --version "$TRUNK_VERSION"
  fi
}

install_npm() {
  # package-lock.json pins every npm package exactly. npm ci rebuilds node_modules from it; the
  # lock's hash, stored after a successful install, tells whether node_modules still matches.
  local stamp=node_modules/.cpa-package-lock.sha256 want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
    log "npm: installing from package-lock.json"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
  fi
}

case "${1:-}" in
  --npm-only) install_npm ;;
  --native-only) install_apt; install_z3; install_rust_tools ;;
  "") install_apt; install_z3; install_rust_tools; install_npm ;;
  *) echo "usage: scripts/setup.sh [--native-only|--npm-only]" >&2; exit 2 ;;
esac
log "ready"
