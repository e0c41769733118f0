#!/usr/bin/env bash
# Installs everything the build and the tests need, pinned to exact versions.
# Idempotent: a second run installs nothing. Usage: scripts/setup.sh [--native-only|--npm-only]
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.129   # must equal the wasm-bindgen crate pinned in web/Cargo.toml
TRUNK_VERSION=0.21.14          # trunk 0.22 needs rustc 1.96 (FACTS.md)
APT_PINS=(
  "z3=4.8.12-3.1"
  "chromium=156.0.8078.79-1~deb12u1"
)
# Debian's security archive keeps only the newest chromium; if the pin above has rotated out,
# the bookworm point-release version is the pinned fallback.
CHROMIUM_FALLBACK="chromium=150.0.7871.100-1~deb12u1"

log() { printf '[setup] %s\n' "$*" >&2; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

have_deb() { # name=version
  local name=${1%%=*} want=${1#*=}
  [ "$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null)" = "install ok installed $want" ]
}

install_apt() {
  local missing=()
  for p in "${APT_PINS[@]}"; do have_deb "$p" || missing+=("$p"); done
  # Accept the fallback chromium as already installed.
  if [ ${#missing[@]} -gt 0 ] && have_deb "$CHROMIUM_FALLBACK"; then
    local m2=(); for p in "${missing[@]}"; do [[ $p == chromium=* ]] || m2+=("$p"); done; missing=("${m2[@]+"${m2[@]}"}")
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt: installing ${missing[*]}"
  $SUDO apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    local m3=(); for p in "${missing[@]}"; do if [[ $p == chromium=* ]]; then m3+=("$CHROMIUM_FALLBACK"); else m3+=("$p"); fi; done
    log "apt: pinned chromium unavailable, trying ${CHROMIUM_FALLBACK}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${m3[@]}"
  fi
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
  --native-only) install_apt; install_rust_tools ;;
  "") install_apt; install_rust_tools; install_npm ;;
  *) echo "usage: scripts/setup.sh [--native-only|--npm-only]" >&2; exit 2 ;;
esac
log "ready"
