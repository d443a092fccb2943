#!/usr/bin/env bash
# Integration test of `hudiscope fleet --glue` against a real Glue API emulator: moto's server
# (PyPI moto[server], installed into a venv under $WORK on first run) serves Glue and S3 on a
# loopback port; scripts/glue-it/seed.py uploads fixture tables into its S3 and creates Glue
# databases and tables pointing at them (in sync, lagging catalog, non-Hudi, missing location);
# then the gated Go test TestGlueIT checks the fleet rows and the meta-sync verdicts.
# Not run by CI (needs PyPI); CI runs the same path against gluefake. Usage: scripts/glue-it.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${GLUE_IT_WORK:-${TMPDIR:-/tmp}/hudiscope-glue-it}
PORT=${GLUE_IT_PORT:-15055}
mkdir -p "$WORK"
if [ ! -x "$WORK/venv/bin/moto_server" ]; then
  echo "installing moto[server] and boto3 into $WORK/venv ..." >&2
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install -q 'moto[server]==5.2.5' boto3
fi
"$WORK/venv/bin/moto_server" -H 127.0.0.1 -p "$PORT" >"$WORK/moto.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
URL="http://127.0.0.1:$PORT"
for _ in $(seq 1 60); do
  curl -fs "$URL/moto-api/" >/dev/null 2>&1 && break
  kill -0 $PID 2>/dev/null || { echo "moto exited; see $WORK/moto.log" >&2; exit 1; }
  sleep 0.5
done
"$WORK/venv/bin/python" scripts/glue-it/seed.py "$URL" "$PWD"
HUDISCOPE_GLUE_IT="$URL" go test -count=1 ./cli -run TestGlueIT -v "$@"
