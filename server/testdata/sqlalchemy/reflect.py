"""SQLAlchemy's PostgreSQL dialect (psycopg2) against `shale demo`: what
Superset and other Python tools do to list and reflect tables, then two
queries with parameters, which psycopg2 writes into the text (bytes as
'\\x..'::bytea, so the second is read as PostgreSQL)."""
import sys

import sqlalchemy as sa

eng = sa.create_engine("postgresql+psycopg2://" + sys.argv[1])
with eng.connect() as c:
    insp = sa.inspect(c)
    print("schemas:", " ".join(insp.get_schema_names()))
    print("tables:", " ".join(sorted(insp.get_table_names())))
    print("views:", " ".join(insp.get_view_names()))
    t = sa.Table("readings", sa.MetaData(), autoload_with=c)
    print("readings columns:", " ".join(f"{col.name}:{col.type}" for col in t.columns))
    print("readings primary key:", " ".join(col.name for col in t.primary_key.columns))
    print("readings indexes:", insp.get_indexes("readings"), "foreign keys:", insp.get_foreign_keys("readings"))
    q = sa.text("SELECT CAST(_key AS STRING) AS k FROM analytics WHERE _key >= :k ORDER BY _key LIMIT 1")
    print("googlesql:", c.execute(q, {"k": "phone#5"}).scalar())
    q = sa.text("SELECT convert_from(_key, 'UTF8') AS k FROM analytics WHERE _key >= :k ORDER BY _key LIMIT 1")
    print("postgresql:", c.execute(q, {"k": b"phone#5"}).scalar())
