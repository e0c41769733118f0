# Sourced by the scripts that drive the built playground in Chromium: serves dist/ with the
# isolation headers (scripts/serve.py) on a free loopback port, waits until it answers, and
# stops it when the calling script exits. Sets `port` and `dist_url`.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve.py dist "$port" --quiet &
dist_server=$!
trap 'kill "$dist_server" 2>/dev/null || true; wait "$dist_server" 2>/dev/null || true' EXIT
dist_url="http://127.0.0.1:$port/"
for _ in $(seq 1 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('$dist_url')" 2>/dev/null && break
  sleep 0.1
done
