#!/usr/bin/env bash
# The demo: starts a local Kafka broker (tools/kafka-local) unless one runs already, then runs the
# WordCount app on it while feeding it text, printing the counts as they update. Stops the broker
# it started when the demo ends. DEMO_DURATION_MS=0 runs until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=no
if ! npm run -s kafka -- status >/dev/null 2>&1; then
  started=yes
fi
KAFKA_BOOTSTRAP_SERVERS=$(npm run -s kafka -- start)
export KAFKA_BOOTSTRAP_SERVERS
cleanup () { if [ "$started" = yes ]; then npm run -s kafka -- stop >/dev/null 2>&1 || true; fi; }
trap cleanup EXIT
node --conditions=@kstreams/source --import tsx examples/wordcount/src/demo.ts
