"""Runs the same queries through asyncpg, psycopg 3 (text and binary
results, server-side prepared) and pg8000, and prints what each driver
returns, normalized (times as ISO 8601, JSON with sorted keys), so that the
output over Shale's demo can be compared with PostgreSQL 15's over a
restored dump of it (postgres.out).

usage: drivers.py HOST PORT DATABASE USER
"""
import asyncio
import datetime
import decimal
import json
import sys

host, port, db, user = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

QUERIES = [
    ("SELECT device_id, ts, stats FROM public.readings WHERE device_id = {p1} ORDER BY ts LIMIT 2", ["4c410523"]),
    ("SELECT count(*), avg((stats->>'battery')::numeric), max(ts), array_agg(DISTINCT device_id ORDER BY device_id) FROM public.readings", []),
    ("SELECT _key, clicks FROM public.counters WHERE _key = {p1}", [b"page#home"]),
    ("SELECT device_id FROM public.readings WHERE ts >= {p1} AND (stats->>'battery')::int > {p2} ORDER BY 1, ts",
     [datetime.datetime(2020, 5, 1, 4, tzinfo=datetime.timezone.utc), 60]),
    ("SELECT 1.5::numeric AS n, 2::int2 AS s, 3::int8 AS b, 1.25::float4 AS f, 'x'::text AS t, true AS ok, "
     "'2020-05-01'::date AS d, '{1,2}'::int[] AS a, '{\"a\": 1}'::jsonb AS j, '\\x0102'::bytea AS by, "
     "interval '1 day 2 hours' AS i, '12:34'::time AS tm, ARRAY['a b', NULL] AS ta", []),
    ("SELECT typname, typreceive::text FROM pg_type WHERE oid = ANY({p1}) ORDER BY 1", [[23, 1007]]),
    # An error at Parse: asyncpg waits for it after Flush, before Sync.
    ("SELECT nosuch FROM public.readings WHERE device_id = {p1}", ["x"]),
    ("SELECT count(*) FROM public.readings", []),
]


def show(v):
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True)
    return repr(v)


def rows_text(rows):
    return "[" + "; ".join(", ".join(show(v) for v in r) for r in rows) + "]"


CURSOR_QUERY = "SELECT device_id, ts, (stats->>'battery')::int AS b FROM public.readings ORDER BY device_id, ts"


async def run_asyncpg():
    import asyncpg
    c = await asyncpg.connect(host=host, port=port, database=db, user=user)
    for q, args in QUERIES:
        try:
            rows = await c.fetch(q.replace("{p1}", "$1").replace("{p2}", "$2"), *args)
            print("asyncpg", rows_text([tuple(r.values()) for r in rows]))
        except Exception as e:
            print("asyncpg ERROR", type(e).__name__, e)
    # Cursors: a portal read in batches, and MOVE on the portal by name.
    async with c.transaction():
        n = 0
        async for r in c.cursor(CURSOR_QUERY, prefetch=4):
            n += 1
        cur = await c.cursor(CURSOR_QUERY)
        first = await cur.fetch(5)
        await cur.forward(3)
        nxt = await cur.fetchrow()
    print("asyncpg cursor", n, [r["b"] for r in first], nxt["b"])
    # Binary parameters of the types asyncpg sends so.
    r = await c.fetchrow("SELECT $1::int[] AS a, $2::text[] AS t, $3::numeric AS n, $4::date AS d, $5::interval AS i",
                         [1, None, 3], ["x", "y z"], decimal.Decimal("12.340"), datetime.date(2020, 5, 1),
                         datetime.timedelta(hours=25))
    print("asyncpg params", rows_text([tuple(r.values())]))
    await c.close()
    # A pool resets a connection it takes back (pg_advisory_unlock_all,
    # CLOSE ALL, UNLISTEN *, RESET ALL) before handing it out again.
    pool = await asyncpg.create_pool(host=host, port=port, database=db, user=user, min_size=1, max_size=1)
    for _ in range(2):
        async with pool.acquire() as pc:
            print("asyncpg pool", await pc.fetchval("SELECT count(*) FROM public.readings"))
    await pool.close()


def run_psycopg():
    import psycopg
    with psycopg.connect(host=host, port=port, dbname=db, user=user) as c:
        for q, args in QUERIES:
            for binary in (False, True):
                try:
                    with c.cursor(binary=binary) as cur:
                        cur.execute(q.replace("{p1}", "%s").replace("{p2}", "%s"), args, prepare=True)
                        print("psycopg", "binary" if binary else "text", rows_text(cur.fetchall()))
                except Exception as e:
                    print("psycopg ERROR", type(e).__name__, e)
                    c.rollback()
        for binary in (False, True):
            with c.cursor(binary=binary) as cur:
                cur.execute("SELECT %s::numeric AS n, %s::int[] AS a, %s::interval AS i",
                            [decimal.Decimal("1.50"), [1, 2], datetime.timedelta(days=1, seconds=5)], prepare=True)
                print("psycopg params", "binary" if binary else "text", rows_text(cur.fetchall()))
        # A server-side cursor (DECLARE, Describe of its portal, FETCH),
        # executemany and COPY TO STDOUT.
        with c.cursor(name="srv") as cur:
            cur.itersize = 4
            cur.execute(CURSOR_QUERY)
            print("psycopg named cursor", [r[2] for r in cur.fetchmany(7)], len(cur.fetchall()))
        with c.cursor() as cur:
            cur.executemany("SELECT count(*) FROM public.readings WHERE device_id = %s", [("4c410523",), ("nope",)],
                            returning=True)
            counts = [cur.fetchone()[0]]
            while cur.nextset():
                counts.append(cur.fetchone()[0])
            print("psycopg executemany", counts)
            with cur.copy("COPY (SELECT device_id, ts FROM public.readings ORDER BY 1, 2 LIMIT 3) TO STDOUT") as cp:
                print("psycopg copy", [tuple(r) for r in cp.rows()])


def run_pg8000():
    import pg8000
    c = pg8000.connect(host=host, port=port, database=db, user=user)
    cur = c.cursor()
    for q, args in QUERIES:
        try:
            cur.execute(q.replace("{p1}", "%s").replace("{p2}", "%s"), args)
            print("pg8000", rows_text(cur.fetchall()))
        except Exception as e:  # its fields: severity twice, SQLSTATE, message, ...
            print("pg8000 ERROR", type(e).__name__, e.args[2:4])
            c.rollback()
    c.close()


asyncio.run(run_asyncpg())
run_psycopg()
run_pg8000()
