#!/usr/bin/env bash
# Runs only the given test files (the root .mocharc.json would add every spec).
exec npx mocha --no-config --node-option import=tsx --node-option conditions=@kstreams/source --extension ts --timeout 60000 --require ./tools/scripts/kafka-root-hook.ts "$@"
