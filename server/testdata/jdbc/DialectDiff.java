// DialectDiff runs PostgreSQL-dialect queries as prepared statements seven
// times each, past pgJDBC's switch to binary results at the fifth, and prints
// each column's type and value as pgJDBC reads it (arrays through getArray).
// Its output over shale demo must be dialect.out, what it prints against
// PostgreSQL 15 over a restored dump of the demo.
//
// usage: java -cp postgresql.jar DialectDiff.java JDBC-URL USER
import java.sql.*;
import java.util.*;

public class DialectDiff {
    public static void main(String[] a) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", a[1]);
        try (Connection c = DriverManager.getConnection(a[0], p)) {
            String[] qs = {
                "SELECT device_id, ts, stats FROM public.readings WHERE device_id = ? ORDER BY ts LIMIT 2",
                "SELECT count(*), avg((stats->>'battery')::numeric), max(ts), array_agg(DISTINCT device_id ORDER BY device_id) FROM public.readings WHERE device_id <> ?",
                "SELECT 1.5::numeric AS n, 2::int2, 3::int8, 1.25::float4, 'x'::text, true, '2020-05-01'::date, '{1,2}'::int[], '{\"a\": 1}'::jsonb, '\\x0102'::bytea, interval '1 day 2 hours', '12:34'::time, ARRAY['a b', NULL], ?::text",
                "SELECT typname, typreceive::text, typelem FROM pg_type WHERE typname = ? ORDER BY 1",
            };
            String[] args = {"4c410523", "zzz", "p", "_int4"};
            for (int qi = 0; qi < qs.length; qi++) {
                try (PreparedStatement ps = c.prepareStatement(qs[qi])) {
                    for (int i = 0; i < 7; i++) {
                        ps.setString(1, args[qi]);
                        try (ResultSet rs = ps.executeQuery()) {
                            ResultSetMetaData md = rs.getMetaData();
                            StringBuilder sb = new StringBuilder("q" + qi + " exec " + i + ":");
                            while (rs.next()) {
                                for (int k = 1; k <= md.getColumnCount(); k++) {
                                    Object o = rs.getObject(k);
                                    String s;
                                    if (o instanceof java.sql.Array) s = Arrays.toString((Object[]) ((java.sql.Array) o).getArray());
                                    else if (o instanceof byte[]) s = "bytes" + Arrays.toString((byte[]) o);
                                    else s = String.valueOf(o);
                                    sb.append(" ").append(md.getColumnTypeName(k)).append("=").append(s);
                                }
                                sb.append(";");
                            }
                            System.out.println(sb);
                        } catch (SQLException e) {
                            System.out.println("q" + qi + " exec " + i + ": ERROR " + e.getSQLState() + " " + e.getMessage());
                        }
                    }
                }
            }
            // DatabaseMetaData over pg_proc and pg_type: a built-in
            // function's versions and arguments, and the tables' row types.
            DatabaseMetaData md = c.getMetaData();
            dump("functions", md.getFunctions(null, "pg_catalog", "upper"), 2, 3, 5, 6);
            dump("functionColumns", md.getFunctionColumns(null, "pg_catalog", "substr", "%"), 3, 4, 5, 6, 7, 13, 17);
            dump("udts", md.getUDTs(null, "public", "%", null), 2, 3, 5);
            dump("procedures", md.getProcedures(null, "public", "%"), 2, 3);
        }
    }

    static void dump(String what, ResultSet rs, int... cols) throws SQLException {
        StringBuilder sb = new StringBuilder(what + ":");
        while (rs.next()) {
            sb.append(" [");
            for (int i = 0; i < cols.length; i++) {
                sb.append(i > 0 ? "|" : "").append(rs.getString(cols[i]));
            }
            sb.append("]");
        }
        System.out.println(sb);
    }
}
