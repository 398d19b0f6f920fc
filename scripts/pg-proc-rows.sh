# Sourced by scripts/gen-pg-catalog.sh and scripts/gen-pg-operators.sh:
# the SQL that prints PostgreSQL 15's pg_proc rows as procDef literals of
# pgwire/pgcatalog (proc_data.go, operator_data.go), one per line.

# goarr is SQL for an array column as a Go slice literal ([]T{...}, or nil).
goarr() { echo "CASE WHEN $1 IS NULL THEN 'nil' ELSE '[]$2{' || array_to_string(ARRAY(SELECT $3 FROM unnest($1) e), ', ') || '}' END"; }

# proc_rows_sql prints the query for the pg_proc rows (alias p, its
# namespace n) that the condition $1 keeps, in OID order.
proc_rows_sql() {
  cat <<SQL
SELECT format(E'\t{%s, %s, %s, %s, ''%s'', ''%s'', ''%s'', %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s},',
  p.oid, CASE n.nspname WHEN 'pg_catalog' THEN 'nspCatalog' ELSE 'nspInfoSchema' END,
  to_json(p.proname::text), to_json(p.prosrc), p.prokind, p.provolatile, p.proparallel,
  p.proisstrict::text, p.proretset::text, p.proleakproof::text, p.procost, p.prorows, p.provariadic::oid, p.pronargdefaults,
  p.prorettype::oid,
  $(goarr p.proargtypes::oid[] uint32 e::text),
  $(goarr p.proallargtypes uint32 e::text),
  to_json(coalesce(array_to_string(p.proargmodes, ''), '')),
  $(goarr p.proargnames string 'to_json(e)::text'),
  to_json(CASE WHEN p.prosupport = 0 THEN '' ELSE p.prosupport::regproc::text END),
  to_json(pg_get_function_arguments(p.oid)), to_json(pg_get_function_identity_arguments(p.oid)),
  to_json(coalesce(pg_get_function_result(p.oid), '')),
  to_json(coalesce(obj_description(p.oid, 'pg_proc'), '')))
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE $1
ORDER BY p.oid;
SQL
}
