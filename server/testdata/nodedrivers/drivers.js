// Runs the same queries through node-postgres (simple and extended
// protocol, named prepared statements, pg-cursor), postgres.js (prepared
// statements, its type fetch, cursors, describe) and the introspection of
// three ORMs and query builders (Sequelize, Kysely, Knex), and
// prints what each driver returns, normalized (times as ISO 8601, bytes as
// hex, JSON with sorted keys, column type OIDs), so that the output over
// Shale's demo can be compared with PostgreSQL 15's over a restored dump of
// it (postgres.out).
//
// usage: node drivers.js HOST PORT DATABASE USER
'use strict';
const pg = require('pg');
const Cursor = require('pg-cursor');
const postgres = require('postgres');

const [host, portText, database, user] = process.argv.slice(2);
const port = Number(portText);

const QUERIES = [
  ['SELECT device_id, ts, stats FROM public.readings WHERE device_id = $1 ORDER BY ts LIMIT 2', ['4c410523']],
  ["SELECT count(*), avg((stats->>'battery')::numeric), max(ts), array_agg(DISTINCT device_id ORDER BY device_id) FROM public.readings", []],
  ['SELECT _key, clicks FROM public.counters WHERE _key = $1', [Buffer.from('page#home')]],
  ["SELECT device_id FROM public.readings WHERE ts >= $1 AND (stats->>'battery')::int > $2 ORDER BY 1, ts",
    [new Date(Date.UTC(2020, 4, 1, 4)), 60]],
  ["SELECT 1.5::numeric AS n, 2::int2 AS s, 3::int8 AS b, 1.25::float4 AS f, 'x'::text AS t, true AS ok, " +
    "'2020-05-01'::date AS d, '{1,2}'::int[] AS a, '{\"a\": 1}'::jsonb AS j, '\\x0102'::bytea AS by, " +
    "interval '1 day 2 hours' AS i, '12:34'::time AS tm, ARRAY['a b', NULL] AS ta, NULL::text AS nothing", []],
  ['SELECT typname, typreceive::text FROM pg_type WHERE oid = ANY($1) ORDER BY 1', [[23, 1007]]],
  ['SELECT nosuch FROM public.readings WHERE device_id = $1', ['x']],
  ['SELECT device_id FROM public.readings WHERE device_id = $1 AND ts < $2', ['4c410523', 'not a time']],
  ['SELECT count(*) FROM public.readings', []],
];

const CURSOR_QUERY = "SELECT device_id, ts, (stats->>'battery')::int AS b FROM public.readings ORDER BY device_id, ts";

function show(v) {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString();
  if (Buffer.isBuffer(v)) return '\\x' + v.toString('hex');
  if (Array.isArray(v)) return '[' + v.map(show).join(', ') + ']';
  if (typeof v === 'object') return JSON.stringify(sorted(v));
  return JSON.stringify(v);
}

function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v)) {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = sorted(v[k]);
    return out;
  }
  return v;
}

function rowsText(rows) {
  return '[' + rows.map((r) => r.map(show).join(', ')).join('; ') + ']';
}

function errorText(e) {
  return `ERROR ${e.code} ${JSON.stringify(e.message)} position=${e.position || ''}`;
}

async function runNodePostgres() {
  const c = new pg.Client({ host, port, database, user });
  await c.connect();
  for (const [text, values] of QUERIES) {
    // Extended protocol when there are values, simple protocol otherwise.
    try {
      const r = await c.query({ text, values, rowMode: 'array' });
      console.log('pg', r.command, r.rowCount, r.fields.map((f) => `${f.name}:${f.dataTypeID}`).join(','), rowsText(r.rows));
    } catch (e) {
      console.log('pg', errorText(e));
    }
  }
  // A named statement, prepared once and executed twice.
  for (const id of ['4c410523', '5c10102']) {
    const r = await c.query({ name: 'by_device', text: 'SELECT count(*) AS n, min(ts) FROM public.readings WHERE device_id = $1', values: [id] });
    console.log('pg named', show(r.rows[0].n), show(r.rows[0].min));
  }
  // Several statements in one simple query, and session statements.
  const multi = await c.query('SET application_name = \'drivers\'; SHOW application_name; SELECT 1::int4 AS one; BEGIN; SELECT current_setting(\'application_name\'); COMMIT');
  console.log('pg multi', multi.map((r) => `${r.command}:${rowsText(r.rows.map(Object.values))}`).join(' '));
  // A cursor: the portal is read in batches (Execute with a row limit).
  const cur = c.query(new Cursor(CURSOR_QUERY));
  const first = await cur.read(5);
  const second = await cur.read(3);
  let rest = 0;
  for (let batch = await cur.read(100); batch.length > 0; batch = await cur.read(100)) rest += batch.length;
  await cur.close();
  console.log('pg cursor', first.map((r) => r.b).join(','), second.map((r) => r.b).join(','), rest);
  // After an error inside a transaction, statements fail until ROLLBACK.
  await c.query('BEGIN');
  try { await c.query("SELECT 'x'::int4"); } catch (e) { console.log('pg', errorText(e)); }
  try { await c.query('SELECT 1'); } catch (e) { console.log('pg', errorText(e)); }
  await c.query('ROLLBACK');
  console.log('pg after rollback', show((await c.query('SELECT 2::int4 AS two')).rows[0].two));
  await c.end();
}

async function runPostgresJS() {
  const sql = postgres({ host, port, database, username: user, max: 1, onnotice: () => {} });
  const q = await sql`SELECT device_id, ts, stats FROM public.readings WHERE device_id = ${'4c410523'} ORDER BY ts LIMIT 2`;
  console.log('postgres.js', q.command, q.count, q.columns.map((c) => `${c.name}:${c.type}`).join(','), rowsText(q.map(Object.values)));
  // Arrays (postgres.js learns the array types from pg_type at connect).
  const a = await sql`SELECT array_agg(DISTINCT device_id ORDER BY device_id) AS ids, ${[1, 2, 3]}::int[] AS ints, '{2020-05-01}'::date[] AS dates FROM public.readings`;
  console.log('postgres.js arrays', rowsText(a.map(Object.values)));
  const v = await sql`SELECT ${Buffer.from('page#home')}::bytea AS k, clicks FROM public.counters WHERE _key = ${Buffer.from('page#home')}`.values();
  console.log('postgres.js values', rowsText(v));
  const u = await sql.unsafe('SELECT count(*) AS n, max(ts) AS latest FROM public.readings');
  console.log('postgres.js unsafe', rowsText(u.map(Object.values)));
  for (const id of ['4c410523', '5c10102', '4c410523']) {
    const [r] = await sql`SELECT count(*)::int AS n FROM public.readings WHERE device_id = ${id}`;
    console.log('postgres.js prepared', id, r.n);
  }
  const d = await sql`SELECT device_id, ts FROM public.readings WHERE device_id = ${'x'} AND ts > ${new Date(0)}`.describe();
  console.log('postgres.js describe', d.types.join(','), d.columns.map((c) => `${c.name}:${c.type}`).join(','));
  let batches = 0, rows = 0;
  for await (const batch of sql`${sql.unsafe(CURSOR_QUERY)}`.cursor(4)) { batches++; rows += batch.length; }
  console.log('postgres.js cursor', batches, rows);
  const t = await sql.begin(async (tx) => {
    const [x] = await tx`SELECT current_setting('transaction_isolation') AS iso`;
    return x.iso;
  });
  console.log('postgres.js begin', t);
  for (const [text, values] of QUERIES.slice(5)) {
    try {
      const r = await sql.unsafe(text, values, { prepare: true });
      console.log('postgres.js', rowsText(r.map(Object.values)));
    } catch (e) {
      console.log('postgres.js', errorText(e));
    }
  }
  await sql.end();
}

// The ORMs' connection setup and introspection: Sequelize sends SET TIME
// ZONE INTERVAL '+00:00' HOUR TO MINUTE on connect and reads
// information_schema and pg_statio_all_tables to describe a table; Kysely
// and Knex read pg_namespace, pg_class, pg_attribute and
// information_schema.columns. Lists the servers return in no defined
// order are sorted.
async function runORMs() {
  const { Sequelize, DataTypes } = require('sequelize');
  const s = new Sequelize(database, user, '', { host, port, dialect: 'postgres', logging: false });
  const qi = s.getQueryInterface();
  for (const [name, fn] of [
    ['authenticate', () => s.authenticate().then(() => 'ok')],
    ['showAllTables', async () => (await qi.showAllTables()).sort()],
    ['describeTable readings', () => qi.describeTable('readings')],
    ['describeTable counters', () => qi.describeTable('counters')],
    ['showIndex readings', () => qi.showIndex('readings')],
    ['getForeignKeyReferencesForTable', () => qi.getForeignKeyReferencesForTable('readings')],
  ]) {
    try {
      console.log('sequelize', name, JSON.stringify(sorted(await fn())));
    } catch (e) {
      console.log('sequelize', name, errorText(e));
    }
  }
  const Reading = s.define('readings', {
    device_id: { type: DataTypes.TEXT, primaryKey: true },
    ts: { type: DataTypes.DATE, primaryKey: true },
    stats: DataTypes.JSONB,
  }, { timestamps: false });
  const found = await Reading.findAll({ where: { device_id: '4c410523' }, order: [['ts', 'DESC']], limit: 2 });
  console.log('sequelize findAll', rowsText(found.map((r) => [r.device_id, r.ts, r.stats])));
  console.log('sequelize count', await Reading.count({ where: { device_id: '5c10102' } }));
  await s.close();

  const { Kysely, PostgresDialect } = require('kysely');
  const k = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ host, port, database, user, max: 1 }) }) });
  const tables = (await k.introspection.getTables()).sort((a, b) => a.name.localeCompare(b.name));
  for (const t of tables) {
    console.log('kysely table', t.schema, t.name, t.isView, t.columns.map((c) =>
      `${c.name}:${c.dataType}:${c.isNullable}:${c.hasDefaultValue}:${c.isAutoIncrementing}`).join(','));
  }
  console.log('kysely schemas', (await k.introspection.getSchemas()).map((x) => x.name).join(','));
  const rows = await k.selectFrom('readings').select(['device_id', 'ts']).where('device_id', '=', 'a0b81f74').orderBy('ts').execute();
  console.log('kysely select', rowsText(rows.map(Object.values)));
  await k.destroy();

  const knex = require('knex')({ client: 'pg', connection: { host, port, database, user } });
  console.log('knex hasTable', await knex.schema.hasTable('readings'), await knex.schema.hasTable('nosuch'));
  console.log('knex hasColumn', await knex.schema.hasColumn('readings', 'device_id'), await knex.schema.hasColumn('readings', 'nosuch'));
  console.log('knex columnInfo', JSON.stringify(sorted(await knex('readings').columnInfo())));
  const kr = await knex('readings').select('device_id').count('* as n').groupBy('device_id').orderBy('device_id');
  console.log('knex select', rowsText(kr.map(Object.values)));
  await knex.destroy();
}

(async () => {
  await runNodePostgres();
  await runPostgresJS();
  await runORMs();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
