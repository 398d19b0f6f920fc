#!/usr/bin/env bash
# Runs the official Go client's own integration suite
# (cloud.google.com/go/bigtable integration_test.go) against `shale serve`.
#
# The suite's "emulated" environment starts Google's emulator in-process; a
# writable copy of the module is patched so that it talks to Shale instead
# (SHALE_IT_HOST), and so that the tests it skips only because Google's
# emulator lacks a feature Shale has (PingAndWarm, authorized views, schema
# bundles, row-key schemas) run. BIGTABLE_EMULATOR_HOST is deliberately not
# set in the test process: with it the client dials with gRPC's default 4 MiB
# receive limit and ignores the suite's own 100 MiB dial options, so
# LargeReadsWritesAndScans would fail against any server.
#
# Usage: scripts/google-integration.sh            (prints the pass/skip/fail counts)
# Exit status is non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(go list -m -f '{{.Version}}' cloud.google.com/go/bigtable)
src=$(go list -m -f '{{.Dir}}' cloud.google.com/go/bigtable)
work=$(mktemp -d)
trap 'kill "${shale_pid:-0}" 2>/dev/null || true; [ -n "${KEEP_IT_LOG:-}" ] && cp "$work/it.log" "$KEEP_IT_LOG"; rm -rf "$work"' EXIT

cp -r "$src" "$work/bigtable"
chmod -R u+w "$work/bigtable"
cd "$work/bigtable"
# 1. An external server instead of the in-process emulator.
perl -0pi -e 's/\tsrv, err := bttest.NewServer\("localhost:0", serverOptions\.\.\.\)\n\tif err != nil \{\n\t\treturn nil, err\n\t\}\n/\tvar srv *bttest.Server\n\tif host := os.Getenv("SHALE_IT_HOST"); host != "" {\n\t\tsrv = &bttest.Server{Addr: host}\n\t} else {\n\t\tvar err error\n\t\tif srv, err = bttest.NewServer("localhost:0", serverOptions...); err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t}\n/' export_test.go
perl -0pi -e 's/func \(e \*EmulatedEnv\) Close\(\) \{\n\te.server.Close\(\)/func (e *EmulatedEnv) Close() {\n\tif os.Getenv("SHALE_IT_HOST") != "" {\n\t\treturn\n\t}\n\te.server.Close()/' export_test.go
grep -q SHALE_IT_HOST export_test.go || { echo "patching export_test.go failed (client $version changed?)"; exit 1; }
# 2. Run the tests Google's emulator cannot, where Shale can.
for feature in "PingAndWarm" "authorizedViews" "schemaBundles" "row key schema" "PrepareQuery"; do
  perl -0pi -e "s/if !testEnv.Config\(\).UseProd \{\n(\t+)t.Skip\(\"emulator doesn't support \Q$feature\E\"\)/if !testEnv.Config().UseProd \&\& os.Getenv(\"SHALE_IT_HOST\") == \"\" {\n\$1t.Skip(\"emulator doesn't support $feature\")/g" integration_test.go
done
# (This one's skip message is copied from the automated-backups test.)
perl -0pi -e 's/(func TestIntegration_UpdateRowKeySchemaInTable\(.*?)if !testEnv.Config\(\).UseProd \{/$1if !testEnv.Config().UseProd \&\& os.Getenv("SHALE_IT_HOST") == "" {/s' integration_test.go
echo "== building the client's integration tests ($version)"
go test -c -o "$work/it.test" . >/dev/null
cd - >/dev/null

echo "== starting shale serve"
go build -o "$work/shale" ./cmd/shale
"$work/shale" serve --data "$work/data" --grpc 127.0.0.1:0 --http 127.0.0.1:0 --pg 127.0.0.1:0 2>"$work/serve.log" &
shale_pid=$!
for _ in $(seq 100); do
  addr=$(sed -n 's/.*Bigtable gRPC API listening addr=\([^ ]*\).*/\1/p' "$work/serve.log")
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { cat "$work/serve.log"; exit 1; }

echo "== running TestIntegration_* against $addr (SessionVRpc needs the session RPCs: skipped)"
status=0
(cd "$work/bigtable" && SHALE_IT_HOST=$addr "$work/it.test" -test.run 'TestIntegration_' -test.skip 'SessionVRpc' \
  -test.v -test.timeout 15m) >"$work/it.log" 2>&1 || status=$?
grep -E '^--- FAIL' -A8 "$work/it.log" || true
pass=$(grep -c '^--- PASS' "$work/it.log" || true)
fail=$(grep -c '^--- FAIL' "$work/it.log" || true)
skip=$(grep -c '^--- SKIP' "$work/it.log" || true)
echo "google client integration: $pass passed, $fail failed, $skip skipped"
exit $status
