// JdbcSmoke drives Shale's PostgreSQL endpoint with pgJDBC the way JDBC
// applications and BI tools do. It prints one line per check; the Go test
// (server/pg_jdbc_test.go) compares the output. Run as a single-file
// program: java -cp postgresql.jar JdbcSmoke.java jdbc:postgresql://HOST:PORT/demo
import java.sql.*;

public class JdbcSmoke {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "shale", "")) {
            // A prepared statement executed past pgJDBC's prepareThreshold
            // (5): from the sixth execution on, parameters and results
            // travel in binary.
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT _key, stats_summary['os_build'] AS os, TO_INT64(metrics['battery_pct']) AS battery " +
                    "FROM usage WHERE _key >= ? ORDER BY _key LIMIT 1")) {
                for (int i = 0; i < 8; i++) {
                    ps.setBytes(1, "tablet#".getBytes("UTF-8"));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        String key = new String(rs.getBytes(1), "UTF-8");
                        System.out.println("exec " + (i + 1) + ": " + key.substring(0, 7) + " os=" +
                                new String(rs.getBytes(2), "UTF-8").substring(0, 5) + " battery>0=" + (rs.getLong(3) > 0));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) AS n FROM usage WHERE STARTS_WITH(_key, ?)")) {
                for (int i = 0; i < 7; i++) {
                    ps.setString(1, "phone#");
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (i == 6) System.out.println("phones: " + rs.getLong("n"));
                    }
                }
            }
            // An error carries its SQLSTATE.
            try (Statement st = c.createStatement()) {
                st.executeQuery("SELECT _key FROM no_such_table");
            } catch (SQLException e) {
                System.out.println("error: " + e.getSQLState());
            }
            DatabaseMetaData md = c.getMetaData();
            System.out.println("product: " + md.getDatabaseProductName() + " " + md.getDatabaseMajorVersion());
            StringBuilder tables = new StringBuilder();
            try (ResultSet rs = md.getTables(null, "public", "%", new String[] {"TABLE"})) {
                while (rs.next()) tables.append(rs.getString("TABLE_NAME")).append(' ');
            }
            System.out.println("tables: " + tables.toString().trim());
            StringBuilder cols = new StringBuilder();
            try (ResultSet rs = md.getColumns(null, "public", "readings", "%")) {
                while (rs.next()) cols.append(rs.getString("COLUMN_NAME")).append(':').append(rs.getString("TYPE_NAME")).append(' ');
            }
            System.out.println("readings columns: " + cols.toString().trim());
            StringBuilder pk = new StringBuilder();
            try (ResultSet rs = md.getPrimaryKeys(null, "public", "readings")) {
                while (rs.next()) pk.append(rs.getString("COLUMN_NAME")).append('/').append(rs.getInt("KEY_SEQ")).append(' ');
            }
            System.out.println("readings primary key: " + pk.toString().trim());
            StringBuilder schemas = new StringBuilder();
            try (ResultSet rs = md.getSchemas()) {
                while (rs.next()) schemas.append(rs.getString("TABLE_SCHEM")).append(' ');
            }
            System.out.println("schemas: " + schemas.toString().trim());
        }
    }
}
