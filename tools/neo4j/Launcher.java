import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community (embedded API) as a local server for Tributary's embedded default.
 *
 * Contract with the Node side (src/graph/embedded):
 *  - args: {@code <homeDir> <boltPort>}; heap is set by the JVM flags, page cache by the
 *    system property {@code tributary.pagecache} (e.g. "512m").
 *  - Bolt listens on 127.0.0.1:{@code boltPort}, authentication off, no HTTP connector.
 *  - Data lives under {@code homeDir/data} and survives restarts.
 *  - Prints exactly one line {@code TRIBUTARY_NEO4J_READY bolt://127.0.0.1:<port>} on stdout once
 *    the default database is available; everything else goes to {@code homeDir/logs}.
 *  - SIGINT/SIGTERM (or stdin closing, i.e. the parent died) shut the database down cleanly, so the
 *    next start needs no recovery.
 */
public final class Launcher {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: Launcher <homeDir> <boltPort>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        long pageCache = ByteUnit.parse(System.getProperty("tributary.pagecache", "512m"));
        Files.createDirectories(home);

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(5))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runnable shutdown = () -> {
            try {
                dbms.shutdown();
            } finally {
                stopped.countDown();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "tributary-neo4j-shutdown"));

        // Waits until the default database accepts transactions.
        dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
        System.out.println("TRIBUTARY_NEO4J_READY bolt://127.0.0.1:" + port);
        System.out.flush();

        // A parent that dies without signalling closes our stdin: stop then, never orphan the JVM.
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // ignore input
                }
            } catch (Exception ignored) {
                // treat as closed
            }
            System.exit(0);
        }, "tributary-neo4j-stdin-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        stopped.await();
    }
}
