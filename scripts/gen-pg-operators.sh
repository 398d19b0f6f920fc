#!/usr/bin/env bash
# Writes pgwire/pgcatalog/operator_data.go: PostgreSQL 15's pg_operator and
# pg_cast rows for the operators and casts Shale's PostgreSQL dialect
# evaluates, their descriptions, and the pg_proc rows of the functions that
# implement them (oprcode, oprrest, oprjoin, castfunc), which pg_proc adds to its own (what \do, \do+, \dC and \dC+ read).
#
# Which operators and casts Shale evaluates is asked of a running Shale:
# every pg_catalog operator whose operand and result types its pg_type
# lists is probed with SELECT pg_typeof(NULL::left OP NULL::right) (prefix
# operators: right only) and kept when Shale accepts it with PostgreSQL's
# result type; every cast between listed types is probed with
# pg_typeof(NULL::source::target). Polymorphic operands are probed as
# integer and integer[]. Those accepted are then run over sample values on
# both servers and dropped where Shale's result differs (below). The rows
# come from a PostgreSQL 15 server.
#
# Usage: scripts/gen-pg-operators.sh
#   SHALE_PSQL="-h 127.0.0.1 -p 5433 -d demo"          psql arguments for Shale
#   PG_PSQL="-h 127.0.0.1 -p 15433 -U postgres -d postgres"  and for PostgreSQL 15
set -euo pipefail
cd "$(dirname "$0")/.."
shale_psql=${SHALE_PSQL:--h 127.0.0.1 -p 5433 -d demo}
pg_psql=${PG_PSQL:--h 127.0.0.1 -p 15433 -U postgres -d postgres}
out=pgwire/pgcatalog/operator_data.go
export PGTZ=UTC # the sample values' results must not depend on the servers' zones

# shellcheck disable=SC2086
version=$(psql $pg_psql -X -A -t -c "SHOW server_version")
case $version in 15.*) ;; *) echo "want PostgreSQL 15, got $version" >&2; exit 1 ;; esac
# shellcheck disable=SC2086
types=$(psql $shale_psql -X -A -t -c "SELECT string_agg(oid::text, ',') FROM pg_catalog.pg_type WHERE typtype <> 'p'")
# The polymorphic pseudo-types an operand may have, and what probes them.
poly="2277,2283,2776,5077,5078,5079"
probe_type() { echo "CASE $1 WHEN 2277 THEN 'integer[]' WHEN 5078 THEN 'integer[]' WHEN 2283 THEN 'integer' WHEN 2776 THEN 'integer' WHEN 5077 THEN 'integer' WHEN 5079 THEN 'integer' ELSE format_type($1, NULL) END"; }
# A probe's result must have PostgreSQL's result type unless that is
# polymorphic.
result_check() { echo "CASE WHEN $1 IN ($poly) THEN 'true' ELSE format('pg_typeof(%s)::oid = %s', $2, $1) END"; }

# Each probe prints its operator's or cast's OID when Shale accepts it.
probes=$(mktemp)
trap 'rm -f "$probes"' EXIT
# shellcheck disable=SC2086
psql $pg_psql -X -A -t >"$probes" <<SQL
WITH o AS (
  SELECT oid, oprresult, format('%s %s NULL::%s',
    CASE WHEN oprkind = 'l' THEN '' ELSE 'NULL::' || $(probe_type oprleft) END,
    oprname, $(probe_type oprright)) AS e
  FROM pg_operator
  WHERE oprnamespace = 'pg_catalog'::regnamespace AND oprleft IN (0, $types, $poly)
    AND oprright IN ($types, $poly) AND oprresult IN ($types, $poly))
SELECT format('SELECT ''op'', %s WHERE %s;', oid, $(result_check oprresult e)) FROM o
UNION ALL
SELECT format('SELECT ''cast'', %s WHERE pg_typeof(NULL::%s::%s)::oid = %s;', oid,
  format_type(castsource, NULL), format_type(casttarget, NULL), casttarget)
FROM pg_cast WHERE castsource IN ($types) AND casttarget IN ($types);
SQL
# shellcheck disable=SC2086
accepted=$(psql $shale_psql -X -A -t -F ' ' -f "$probes" 2>/dev/null || true)
ops=$(echo "$accepted" | awk '$1 == "op" {printf "%s%s", sep, $2; sep = ","}')
casts=$(echo "$accepted" | awk '$1 == "cast" {printf "%s%s", sep, $2; sep = ","}')

# A NULL probe shows only that Shale binds the operator or cast. Each kept
# one is then run over sample values of its types (none for the reg* types,
# whose values name each server's own objects) on both servers, and dropped
# when Shale's result differs from PostgreSQL's, or only one of them fails.
samples="(21,'2'),(23,'3'),(20,'5'),(700,'1.5'),(701,'2'),(1700,'7.25'),(25,'abc'),(19,'abd'),(1042,'abc'),
  (1043,'abe'),(16,'true'),(1082,'2024-01-02'),(1114,'2024-01-02 03:04:05'),(1184,'2024-01-02 03:04:05+00'),
  (1186,'1 day 02:00'),(1083,'10:00'),(1266,'10:00+02'),(3802,'{\"a\":1,\"b\":[1,2]}'),(114,'{\"a\":1}'),
  (17,'\\x0102'),(2950,'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),(26,'5'),(18,'a'),(1009,'{a,b}'),(1007,'{1,2}'),
  (2277,'{1,2}'),(2283,'4'),(5077,'4'),(5078,'{1,2}'),(2776,'4'),(5079,'4'),(4072,'\$.a'),(1021,'{1.5}'),
  (1015,'{x}'),(1005,'{1}'),(1016,'{1}'),(1022,'{2.5}'),(1231,'{1.5}'),(28,'7'),(5069,'9'),(3220,'0/16B3748')"
# shellcheck disable=SC2086
psql $pg_psql -X -A -t >"$probes" <<SQL
WITH s(t, v) AS (VALUES $samples),
typed AS (SELECT t, format('%L::%s', v, $(probe_type t)) AS e FROM s)
SELECT format('SELECT ''op'', %s, (%s %s %s)::text;', o.oid, coalesce(l.e, ''), o.oprname, r.e)
FROM pg_operator o LEFT JOIN typed l ON l.t = o.oprleft JOIN typed r ON r.t = o.oprright
WHERE o.oid IN ($ops) AND (o.oprkind = 'l' OR l.t IS NOT NULL)
UNION ALL
SELECT format('SELECT ''cast'', %s, (%s::%s)::text;', c.oid, s.e, format_type(c.casttarget, NULL))
FROM pg_cast c JOIN typed s ON s.t = c.castsource
WHERE c.oid IN ($casts) AND c.casttarget NOT IN (SELECT oid FROM pg_type WHERE typname LIKE 'reg%');
SQL
pg_values=$(mktemp)
shale_values=$(mktemp)
trap 'rm -f "$probes" "$pg_values" "$shale_values"' EXIT
# shellcheck disable=SC2086
psql $pg_psql -X -A -t -F ' ' -f "$probes" >"$pg_values" 2>/dev/null || true
# shellcheck disable=SC2086
psql $shale_psql -X -A -t -F ' ' -f "$probes" >"$shale_values" 2>/dev/null || true
differ=$(grep -o "'[a-z]*', [0-9]*" "$probes" | tr -d "'," | awk -v pg="$pg_values" -v shale="$shale_values" '
  BEGIN {
    while ((getline l < pg) > 0) { split(l, f, " "); want[f[1] " " f[2]] = l }
    while ((getline l < shale) > 0) { split(l, f, " "); got[f[1] " " f[2]] = l }
  }
  want[$0] != got[$0] { print }')
drop() { echo "$2" | tr , '\n' | grep -vxF -f <(echo "$differ" | awk -v w="$1" '$1 == w {print $2}'; echo x) | paste -sd,; }
ops=$(drop op "$ops")
casts=$(drop cast "$casts")
echo "dropped for differing values: $(echo "$differ" | paste -sd' ')" >&2

# shellcheck source=scripts/pg-proc-rows.sh
. scripts/pg-proc-rows.sh

{
  cat <<HEAD
// Code generated by scripts/gen-pg-operators.sh from PostgreSQL $version; DO NOT EDIT.

package pgcatalog

// pgOperators are PostgreSQL's pg_operator rows for the operators this
// package evaluates, in OID order, with their comments (oprcom and
// oprnegate are 0 when they name an operator it does not evaluate).
var pgOperators = []operDef{
HEAD
  # shellcheck disable=SC2086
  psql $pg_psql -X -A -t <<SQL
SELECT format(E'\t{%s, %s, ''%s'', %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s},',
  o.oid, to_json(o.oprname::text), o.oprkind, o.oprcanmerge::text, o.oprcanhash::text, o.oprleft::oid, o.oprright::oid,
  o.oprresult::oid, CASE WHEN o.oprcom IN ($ops) THEN o.oprcom ELSE 0 END,
  CASE WHEN o.oprnegate IN ($ops) THEN o.oprnegate ELSE 0 END, o.oprcode::oid, o.oprrest::oid, o.oprjoin::oid,
  to_json(coalesce(obj_description(o.oid, 'pg_operator'), '')))
FROM pg_operator o WHERE o.oid IN ($ops) ORDER BY o.oid;
SQL
  cat <<MID
}

// pgCasts are PostgreSQL's pg_cast rows for the casts this package
// evaluates, in OID order.
var pgCasts = []castDef{
MID
  # shellcheck disable=SC2086
  psql $pg_psql -X -A -t -c "SELECT format(E'\t{%s, %s, %s, %s, ''%s'', ''%s''},', oid, castsource::oid, casttarget::oid, castfunc::oid, castcontext, castmethod) FROM pg_cast WHERE oid IN ($casts) ORDER BY oid"
  cat <<MID
}

// pgOperatorProcs are PostgreSQL's pg_proc rows for the functions
// implementing those operators and casts (the fields as in proc_data.go);
// pg_proc adds those it does not list already.
var pgOperatorProcs = []procDef{
MID
  # shellcheck disable=SC2086
  psql $pg_psql -X -A -t <<SQL
$(proc_rows_sql "p.oid IN (SELECT unnest(ARRAY[oprcode, oprrest, oprjoin]::oid[]) FROM pg_operator WHERE oid IN ($ops)
    UNION SELECT castfunc FROM pg_cast WHERE oid IN ($casts))")
SQL
  echo "}"
} >"$out.tmp"
gofmt "$out.tmp" >"$out"
rm "$out.tmp"
echo "wrote $out ($(echo "$ops" | tr , '\n' | wc -l) operators, $(echo "$casts" | tr , '\n' | wc -l) casts)"
