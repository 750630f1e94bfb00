import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.neo4j.cypher.internal.InputQuery;
import org.neo4j.cypher.internal.QueryCache;
import org.neo4j.cypher.internal.cache.CacheTracer;
import org.neo4j.cypher.internal.cache.CypherQueryCaches;
import org.neo4j.monitoring.Monitors;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.api.procedure.GlobalProcedures;
import org.neo4j.kernel.impl.query.CacheMetrics;
import org.neo4j.kernel.impl.query.QueryCacheStatistics;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

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
 *  - Cypher plans ignore the sizes of list and string parameters
 *    ({@code internal.cypher.use_parameter_size=false}). Neo4j would otherwise cache a plan per
 *    size bucket (empty, 1, 2-10, 11-100, 101-1000, ...): a query met a compile (about a second)
 *    each time a batch or a frontier crossed into another bucket, and the plans it chose for large
 *    batches were slower (bench/profile-ingest.ts, 500-event batches: a transaction's median 3.9 s
 *    with the sizes, 1.4 s without; 100-event batches: 376 and 326 ms). Tributary's queries start
 *    from index seeks by id, which a size estimate cannot improve.
 *  - With the system property {@code tributary.replan=refresher} (Tributary's plan refresher is on,
 *    src/graph/plan-refresher.ts), a cached plan is replanned only once a statistic it was costed
 *    with diverged by more than 0.95, that threshold does not decay over time, and a plan is checked
 *    at most once an hour instead of every 10 s (Neo4j's default lowers the threshold from 0.75 to
 *    0.1 over hours and checks every 10 s, so on a growing graph plans go stale over and over, each
 *    replanned on the path of whichever request uses it next; from an empty store every plan is
 *    stale as soon as data arrives). The refresher replans the shapes in use instead, off the
 *    request path.
 *  - Transaction logs older than the last checkpoint are kept up to 1 GiB
 *    ({@code db.tx_log.rotation.retention_policy=1G size}) instead of Neo4j's 2 days: Community has
 *    no incremental backup to replay them, and on a bulk load they grew as large as the store itself
 *    (bench XL trial: 1.1 GB of logs beside a 0.96 GB store).
 *  - Procedure {@code tributary.queryCaches()} yields Neo4j's own counters of its query caches
 *    (per kind: hits, misses, compiled, compiledWithExpressionCodeGen, discards, stale), so the
 *    service can count the plans compiled after its warm-up (src/graph/plan-cache.ts).
 *  - Procedure {@code tributary.planCompiles(after)} yields the plans Neo4j compiled for a statement
 *    (a cache miss or a stale plan; not the replans forced by {@code CYPHER replan=force}, which
 *    Neo4j reports as recompiles), the last {@link PlanLog#CAPACITY} kept, each with its sequence
 *    number (from 1, increasing), epoch milliseconds, the statement as Neo4j keyed it (its text
 *    after any leading comments and {@code EXPLAIN}/{@code CYPHER} options), the parameter types
 *    the plan was keyed by (Neo4j's own rendering), whether its transaction held uncommitted
 *    changes, and for a stale plan the reason Neo4j gave; a flush of the whole cache (a schema
 *    change) is an entry of its own. So the service can say which of its queries met a compile on
 *    the request path (src/graph/plan-compiles.ts). It needs Neo4j's query-cache monitors on
 *    ({@code internal.cypher.enable_query_cache_monitors}).
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

        boolean refresherReplans = "refresher".equals(System.getProperty("tributary.replan"));
        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home);
        if (refresherReplans) {
            builder.setConfig(GraphDatabaseSettings.query_statistics_divergence_threshold, 0.95)
                    .setConfig(GraphDatabaseSettings.cypher_min_replan_interval, Duration.ofHours(1))
                    .setConfig(GraphDatabaseInternalSettings.cypher_replan_algorithm, GraphDatabaseInternalSettings.CypherReplanAlgorithm.NONE);
        }
        DatabaseManagementService dbms = builder
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(5))
                .setConfig(GraphDatabaseInternalSettings.cypher_size_hint_parameters, false)
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "1G size")
                .setConfig(GraphDatabaseInternalSettings.cypher_enable_query_cache_monitors, true)
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

        GraphDatabaseAPI db = (GraphDatabaseAPI) dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.getDependencyResolver().resolveDependency(GlobalProcedures.class).registerProcedure(QueryCaches.class);
        db.getDependencyResolver().resolveDependency(GlobalProcedures.class).registerProcedure(PlanCompiles.class);
        CypherQueryCaches.ExecutableQueryCache$.MODULE$.addMonitorListener(
                db.getDependencyResolver().resolveDependency(Monitors.class), PlanLog.TRACER);
        // Waits until the default database accepts transactions.
        db.executeTransactionally("RETURN 1");
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

    /** {@code CALL tributary.queryCaches()}: the database's query-cache counters since it started. */
    public static final class QueryCaches {
        @Context
        public GraphDatabaseService db;

        /** One cache kind's counters (kinds: preparser, ast, logical_plan, execution_plan, executable_query). */
        public static final class Row {
            public String kind;
            public long hits;
            public long misses;
            public long compiled;
            public long compiledWithExpressionCodeGen;
            public long discards;
            public long stale;

            Row(String kind, CacheMetrics m) {
                this.kind = kind;
                hits = m.getHits();
                misses = m.getMisses();
                compiled = m.getCompiled();
                compiledWithExpressionCodeGen = m.getCompiledWithExpressionCodeGen();
                discards = m.getDiscards();
                stale = m.getStaleEntries();
            }
        }

        @Procedure(name = "tributary.queryCaches", mode = Mode.READ)
        public Stream<Row> queryCaches() {
            QueryCacheStatistics stats = ((GraphDatabaseAPI) db).getDependencyResolver().resolveDependency(QueryCacheStatistics.class);
            return stats.metricsPerCacheKind().entrySet().stream().map(e -> new Row(e.getKey(), e.getValue()));
        }
    }

    /** The last plans compiled for statements (see the class comment); thread-safe. */
    static final class PlanLog {
        static final int CAPACITY = 500;
        private static final ArrayDeque<Entry> ENTRIES = new ArrayDeque<>();
        private static long seq = 0;

        record Entry(long seq, long at, String event, String statement, String parameters, boolean afterWrite, String reason) {}

        static synchronized void add(String event, Object key, String reason) {
            if (!(key instanceof QueryCache.CacheKey<?> k) || !(k.queryRep() instanceof InputQuery.CacheKey q)) return;
            if (ENTRIES.size() == CAPACITY) ENTRIES.removeFirst();
            ENTRIES.addLast(new Entry(++seq, System.currentTimeMillis(), event, q.statementCacheKey(), String.valueOf(k.parameterTypeMap()), k.txStateHasChanges(), reason));
        }

        static synchronized void flushed(long entries) {
            if (ENTRIES.size() == CAPACITY) ENTRIES.removeFirst();
            ENTRIES.addLast(new Entry(++seq, System.currentTimeMillis(), "flushed", "", "", false, entries + " cached plans dropped"));
        }

        static synchronized List<Entry> after(long after) {
            List<Entry> out = new ArrayList<>();
            for (Entry e : ENTRIES) if (e.seq() > after) out.add(e);
            return out;
        }

        static final CacheTracer<Object> TRACER = new CacheTracer<Object>() {
            @Override
            public void compute(Object key, String queryId) {
                add("compiled", key, null);
            }

            @Override
            public void cacheStale(Object key, int secondsSinceCompute, String queryId, scala.Option<String> reason) {
                add("stale", key, reason.isDefined() ? reason.get() : null);
            }

            @Override
            public void cacheFlush(long sizeBeforeFlush) {
                flushed(sizeBeforeFlush);
            }
        };
    }

    /** {@code CALL tributary.planCompiles(after)}: the kept plan compiles numbered above {@code after}. */
    public static final class PlanCompiles {
        public static final class Row {
            public long seq;
            public long at;
            public String event;
            public String statement;
            public String parameters;
            public boolean afterWrite;
            public String reason;

            Row(PlanLog.Entry e) {
                seq = e.seq();
                at = e.at();
                event = e.event();
                statement = e.statement();
                parameters = e.parameters();
                afterWrite = e.afterWrite();
                reason = e.reason();
            }
        }

        @Procedure(name = "tributary.planCompiles", mode = Mode.READ)
        public Stream<Row> planCompiles(@Name("after") long after) {
            return PlanLog.after(after).stream().map(Row::new);
        }
    }
}
