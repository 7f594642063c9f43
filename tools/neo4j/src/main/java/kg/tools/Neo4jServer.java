package kg.tools;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * A local Neo4j Community server for kg's tests and benchmarks: Bolt on 127.0.0.1 only, auth on,
 * {@code LOAD CSV} confined to {@code HOME_DIR/import}.
 *
 * <p>Usage: {@code java -cp CLASSPATH kg.tools.Neo4jServer HOME_DIR PORT [PAGE_CACHE_MB [PLUGINS_DIR]]}. The password of the
 * {@code neo4j} user comes from the {@code NEO4J_PASSWORD} environment variable (never from the
 * command line, so it does not show in process listings). Prints one line
 * {@code kg-neo4j ready bolt://127.0.0.1:PORT} when it accepts connections and runs until it is
 * sent SIGTERM/SIGINT, which shuts the database down cleanly.
 *
 * <p>{@code PLUGINS_DIR} is the server's plugin folder, as {@code server.directories.plugins} is a packaged
 * server's: Neo4j registers the procedures of every jar in it. The jars must also be on the classpath (a
 * packaged server puts {@code plugins/*} there) for their kernel extensions to load. Procedures named
 * {@code gds.*} may then use the kernel's internals ({@code dbms.security.procedures.unrestricted=gds.*}),
 * which the Graph Data Science library needs.
 */
public final class Neo4jServer {
    private Neo4jServer() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // Neo4j leaves non-daemon threads behind: exit instead of lingering half-started.
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) {
        if (args.length < 2 || args.length > 4) {
            System.err.println("usage: kg.tools.Neo4jServer HOME_DIR PORT [PAGE_CACHE_MB [PLUGINS_DIR]]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        long pageCacheMb = args.length > 2 ? Long.parseLong(args[2]) : 256L;
        Path plugins = args.length > 3 ? Path.of(args[3]).toAbsolutePath() : null;
        Map<String, String> env = System.getenv();
        String password = env.getOrDefault("NEO4J_PASSWORD", "");
        if (password.length() < 8) {
            System.err.println("kg-neo4j: set NEO4J_PASSWORD (8 characters or more)");
            System.exit(2);
        }
        // LOAD CSV may read files only from HOME_DIR/import, as a packaged server's conf sets it up
        // (server.directories.import); embedded Neo4j has no import folder by default, so
        // file:///etc/passwd would read the machine's own files.
        Path imports = home.resolve("import");
        try {
            java.nio.file.Files.createDirectories(imports);
        } catch (java.io.IOException e) {
            System.err.println("kg-neo4j: cannot create " + imports + ": " + e.getMessage());
            System.exit(1);
        }
        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home);
        if (plugins != null) {
            builder.setConfig(GraphDatabaseSettings.plugin_dir, plugins)
                    .setConfig(GraphDatabaseSettings.procedure_unrestricted, List.of("gds.*"));
        }
        DatabaseManagementService dbms = builder
                .setConfig(GraphDatabaseSettings.load_csv_file_url_root, imports)
                .setConfig(GraphDatabaseSettings.allow_file_urls, true)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCacheMb * 1024 * 1024)
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(dbms::shutdown, "kg-neo4j-shutdown"));
        try {
            dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } catch (RuntimeException e) {
            // A restart on the same folder: the password is already the one asked for.
            if (!String.valueOf(e.getMessage()).contains("cannot be the same")) {
                System.err.println("kg-neo4j: cannot set the password: " + e.getMessage());
                System.exit(1);
            }
        }
        System.out.println("kg-neo4j ready bolt://127.0.0.1:" + port);
        System.out.flush();
        try {
            Thread.currentThread().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
