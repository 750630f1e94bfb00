import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.util.Collector;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The seed stack's two Flink jobs, run in one Flink 2.2 MiniCluster (a session cluster inside this
 * JVM, REST on 127.0.0.1:--rest-port) and submitted to it through its REST API like any client
 * would, with openlineage-flink's job status listener configured on both sides (client and
 * JobManager):
 *
 * <ol>
 *   <li>--enrich-job (DataStream, streaming, checkpointed): Debezium JSON envelopes on --cdc-topic →
 *       flat enriched orders on --enriched-topic (KafkaSource/KafkaSink, which report Flink's
 *       native lineage);
 *   <li>once job 1 has committed offsets up to the end of --cdc-topic (its sink flushes on the same
 *       checkpoint), --aggregate-job (Flink SQL, batch over the bounded Kafka table) aggregates the
 *       paid orders by country into the Iceberg table --table of the Hadoop catalog --catalog at
 *       --warehouse;
 *   <li>job 1 is then stopped with a savepoint (or cancelled with --stop cancel).
 * </ol>
 *
 * Prints one line `SEED_RESULT {json}` at the end (job ids and final states, the Iceberg table's
 * metadata location, snapshot and rows).
 */
public class SeedJobs {
  static final String LISTENER = "io.openlineage.flink.listener.OpenLineageJobStatusChangedListenerFactory";
  static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] argv) throws Exception {
    Map<String, String> a = parseArgs(argv);
    String bootstrap = a.get("bootstrap");
    String cdcTopic = a.get("cdc-topic");
    String enrichedTopic = a.get("enriched-topic");
    String enrichJob = a.get("enrich-job");
    String aggregateJob = a.get("aggregate-job");
    String warehouse = a.get("warehouse");
    String catalog = a.get("catalog");
    String table = a.get("table");
    int restPort = Integer.parseInt(a.get("rest-port"));
    Path state = Path.of(a.get("state-dir"));
    long timeoutMs = Long.parseLong(a.getOrDefault("timeout-s", "300")) * 1000;
    String stopMode = a.getOrDefault("stop", "savepoint");
    long settleMs = Long.parseLong(a.getOrDefault("settle-s", "8")) * 1000;

    Configuration cluster = new Configuration();
    cluster.set(DeploymentOptions.JOB_STATUS_CHANGED_LISTENERS, List.of(LISTENER));
    cluster.set(RestOptions.ADDRESS, "127.0.0.1");
    cluster.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    cluster.set(RestOptions.PORT, restPort);
    cluster.set(RestOptions.BIND_PORT, String.valueOf(restPort));
    cluster.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    cluster.set(CoreOptions.DEFAULT_PARALLELISM, 1);
    cluster.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, state.resolve("checkpoints").toUri().toString());
    cluster.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, state.resolve("savepoints").toUri().toString());

    MiniClusterConfiguration mcConf =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(cluster)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(4)
            .build();
    Map<String, Object> result = new LinkedHashMap<>();
    try (MiniCluster mini = new MiniCluster(mcConf)) {
      mini.start();
      URI rest = mini.getRestAddress().get();
      log("Flink " + org.apache.flink.runtime.util.EnvironmentInformation.getVersion() + " MiniCluster, REST " + rest);

      // The client side: what a submitting application is given (the listener is created here
      // too, and emits START from the job's lineage graph).
      Configuration client = new Configuration();
      client.set(DeploymentOptions.JOB_STATUS_CHANGED_LISTENERS, List.of(LISTENER));
      client.set(RestOptions.ADDRESS, rest.getHost());
      client.set(RestOptions.PORT, rest.getPort());
      client.set(CoreOptions.DEFAULT_PARALLELISM, 1);

      // ---- job 1: enrich-orders (DataStream, streaming) ----
      StreamExecutionEnvironment env =
          StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort(), client);
      env.enableCheckpointing(2000);
      KafkaSource<String> source =
          KafkaSource.<String>builder()
              .setBootstrapServers(bootstrap)
              .setTopics(cdcTopic)
              .setGroupId(enrichJob)
              .setClientIdPrefix(enrichJob)
              .setStartingOffsets(OffsetsInitializer.earliest())
              .setValueOnlyDeserializer(new TombstoneSkippingStringSchema())
              .build();
      KafkaSink<String> sink =
          KafkaSink.<String>builder()
              .setBootstrapServers(bootstrap)
              .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
              .setRecordSerializer(
                  KafkaRecordSerializationSchema.<String>builder()
                      .setTopic(enrichedTopic)
                      .setKeySerializationSchema(new OrderIdKey())
                      .setValueSerializationSchema(new SimpleStringSchema())
                      .build())
              .build();
      env.fromSource(source, WatermarkStrategy.noWatermarks(), "debezium-orders")
          .uid("debezium-orders")
          .flatMap(new Enrich())
          .uid("enrich")
          .name("enrich")
          .sinkTo(sink)
          .uid("orders-enriched")
          .name("orders-enriched");
      JobClient job1 = env.executeAsync(enrichJob);
      JobID job1Id = job1.getJobID();
      log("submitted " + enrichJob + " as " + job1Id);

      waitForCatchUp(bootstrap, enrichJob, cdcTopic, enrichedTopic, job1, timeoutMs);

      // ---- job 2: orders-by-country (Flink SQL, batch over the bounded Kafka table) ----
      Configuration sqlConf = new Configuration(client);
      sqlConf.set(DeploymentOptions.TARGET, "remote");
      sqlConf.set(PipelineOptions.NAME, aggregateJob);
      TableEnvironment tEnv =
          TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode().withConfiguration(sqlConf).build());
      tEnv.executeSql(
          "CREATE TABLE enriched (\n"
              + "  order_id BIGINT, customer_id BIGINT, country STRING, region STRING, status STRING,\n"
              + "  amount DOUBLE, op STRING, ts_ms BIGINT\n"
              + ") WITH (\n"
              + "  'connector' = 'kafka',\n"
              + "  'topic' = '" + enrichedTopic + "',\n"
              + "  'properties.bootstrap.servers' = '" + bootstrap + "',\n"
              + "  'properties.group.id' = '" + aggregateJob + "',\n"
              + "  'scan.startup.mode' = 'earliest-offset',\n"
              + "  'scan.bounded.mode' = 'latest-offset',\n"
              + "  'format' = 'json'\n"
              + ")");
      tEnv.executeSql(
          "CREATE CATALOG " + catalog + " WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '"
              + Path.of(warehouse).toUri() + "', 'property-version' = '1')");
      String db = table.substring(0, table.indexOf('.'));
      tEnv.executeSql("CREATE DATABASE IF NOT EXISTS " + catalog + "." + db);
      tEnv.executeSql(
          "CREATE TABLE IF NOT EXISTS " + catalog + "." + table
              + " (country STRING, region STRING, orders BIGINT, revenue DOUBLE)"
              + " WITH ('format-version' = '2')");
      TableResult insert =
          tEnv.executeSql(
              "INSERT INTO " + catalog + "." + table + "\n"
                  + "SELECT country, region, COUNT(*) AS orders, SUM(amount) AS revenue\n"
                  + "FROM enriched WHERE status = 'paid' GROUP BY country, region");
      JobClient job2 = insert.getJobClient().orElseThrow();
      log("submitted " + aggregateJob + " as " + job2.getJobID());
      insert.await(timeoutMs, TimeUnit.MILLISECONDS);
      JobStatus job2Status = waitTerminal(job2, 60_000);
      log(aggregateJob + " ended " + job2Status);
      if (job2Status != JobStatus.FINISHED) throw new IllegalStateException(aggregateJob + " ended " + job2Status);

      // ---- stop job 1 ----
      if ("cancel".equals(stopMode)) {
        log("cancelling " + enrichJob);
        job1.cancel().get(60, TimeUnit.SECONDS);
      } else {
        String savepoint =
            job1.stopWithSavepoint(false, state.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get(120, TimeUnit.SECONDS);
        log("stopped " + enrichJob + " with savepoint " + savepoint);
        result.put("savepoint", savepoint);
      }
      JobStatus job1Status = waitTerminal(job1, 60_000);
      log(enrichJob + " ended " + job1Status);

      // The JobManager-side listener emits the terminal events asynchronously, through a Kafka
      // producer that sends in the background: give them time before the JVM goes.
      Thread.sleep(settleMs);

      result.put("enrichJobId", job1Id.toString());
      result.put("enrichJobStatus", job1Status.toString());
      result.put("aggregateJobId", job2.getJobID().toString());
      result.put("aggregateJobStatus", job2Status.toString());
      result.putAll(describeTable(warehouse, table));
    }
    System.out.println("SEED_RESULT " + JSON.writeValueAsString(result));
    System.out.flush();
    // openlineage-flink's checkpoint tracking threads are not daemons: end the JVM explicitly.
    System.exit(0);
  }

  /**
   * Waits until job 1's consumer group has committed (on a completed checkpoint) the end offsets of
   * the CDC topic: by then its at-least-once sink has flushed everything before them.
   */
  static void waitForCatchUp(String bootstrap, String group, String cdcTopic, String enrichedTopic, JobClient job, long timeoutMs)
      throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      List<TopicPartition> parts = new ArrayList<>();
      admin.describeTopics(List.of(cdcTopic)).allTopicNames().get().get(cdcTopic).partitions()
          .forEach(info -> parts.add(new TopicPartition(cdcTopic, info.partition())));
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      parts.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
      long deadline = System.currentTimeMillis() + timeoutMs;
      String last = "";
      for (;;) {
        JobStatus status = job.getJobStatus().get();
        if (status.isGloballyTerminalState()) throw new IllegalStateException("job 1 ended " + status + " before catching up");
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        boolean caughtUp = true;
        StringBuilder where = new StringBuilder();
        for (TopicPartition tp : parts) {
          OffsetAndMetadata c = committed.get(tp);
          long at = c == null ? -1 : c.offset();
          where.append(tp).append(' ').append(at).append('/').append(ends.get(tp)).append(' ');
          if (at < ends.get(tp)) caughtUp = false;
        }
        if (!where.toString().equals(last)) {
          log(group + " (" + status + ") committed " + where.toString().trim());
          last = where.toString();
        }
        if (caughtUp) break;
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("timed out waiting for " + group + " to catch up: " + where);
        Thread.sleep(1000);
      }
      TopicPartition out = new TopicPartition(enrichedTopic, 0);
      long produced = admin.listOffsets(Map.of(out, OffsetSpec.latest())).all().get().get(out).offset();
      log(enrichedTopic + " holds " + produced + " records");
    }
  }

  static JobStatus waitTerminal(JobClient job, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    for (;;) {
      JobStatus s;
      try {
        s = job.getJobStatus().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        s = null;
      }
      if (s != null && s.isGloballyTerminalState()) return s;
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("job " + job.getJobID() + " still " + s);
      Thread.sleep(500);
    }
  }

  static Map<String, Object> describeTable(String warehouse, String table) throws Exception {
    Map<String, Object> out = new LinkedHashMap<>();
    HadoopCatalog cat = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), Path.of(warehouse).toUri().toString());
    try {
      Table t = cat.loadTable(TableIdentifier.parse(table));
      Snapshot snap = t.currentSnapshot();
      out.put("metadataLocation", ((HasTableOperations) t).operations().current().metadataFileLocation());
      out.put("tableLocation", t.location());
      // A string: snapshot ids use all 64 bits, more than a JavaScript number holds.
      out.put("snapshotId", snap == null ? null : String.valueOf(snap.snapshotId()));
      out.put("snapshotSummary", snap == null ? null : snap.summary());
      List<Map<String, Object>> rows = new ArrayList<>();
      try (CloseableIterable<Record> it = IcebergGenerics.read(t).build()) {
        for (Record r : it) {
          Map<String, Object> row = new LinkedHashMap<>();
          t.schema().columns().forEach(c -> row.put(c.name(), r.getField(c.name())));
          rows.add(row);
        }
      }
      out.put("rows", rows);
    } finally {
      cat.close();
    }
    return out;
  }

  /** Debezium's tombstones (null values after a delete) carry nothing to enrich. */
  public static class TombstoneSkippingStringSchema extends SimpleStringSchema {
    @Override
    public String deserialize(byte[] message) {
      return message == null ? null : super.deserialize(message);
    }
  }

  /** The enriched record's key: its order id, so one order's versions stay in one partition. */
  public static class OrderIdKey implements SerializationSchema<String> {
    @Override
    public byte[] serialize(String element) {
      try {
        return JSON.readTree(element).path("order_id").asText().getBytes(StandardCharsets.UTF_8);
      } catch (Exception e) {
        return null;
      }
    }
  }

  /** Debezium envelope (schemas disabled) → the flat enriched order; deletes are dropped. */
  public static class Enrich implements FlatMapFunction<String, String> {
    @Override
    public void flatMap(String value, Collector<String> out) throws Exception {
      JsonNode env = JSON.readTree(value);
      String op = env.path("op").asText();
      if (!op.equals("r") && !op.equals("c") && !op.equals("u")) return;
      JsonNode after = env.path("after");
      if (!after.isObject()) return;
      String country = after.path("country").asText();
      ObjectNode o = JSON.createObjectNode();
      o.put("order_id", after.path("order_id").asLong());
      o.put("customer_id", after.path("customer_id").asLong());
      o.put("country", country);
      o.put("region", region(country));
      o.put("status", after.path("status").asText());
      o.put("amount", amount(after.path("amount")));
      o.put("op", op);
      o.put("ts_ms", env.path("ts_ms").asLong());
      out.collect(JSON.writeValueAsString(o));
    }

    /**
     * A number, or a number in a string; anything else (Debezium's default decimal.handling.mode
     * `precise` writes NUMERIC as base64 bytes when schemas are disabled) fails the record loudly.
     */
    static double amount(JsonNode n) {
      if (n.isNumber()) return n.asDouble();
      try {
        return Double.parseDouble(n.asText());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "amount " + n + " is not a number: the Debezium connector needs decimal.handling.mode=double (or string)", e);
      }
    }

    static String region(String country) {
      switch (country) {
        case "FR":
        case "DE":
        case "NL":
          return "EU";
        case "US":
          return "NA";
        default:
          return "OTHER";
      }
    }
  }

  static Map<String, String> parseArgs(String[] argv) {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      a.put(argv[i].substring(2), argv[i + 1]);
    }
    for (String k : List.of("bootstrap", "cdc-topic", "enriched-topic", "enrich-job", "aggregate-job", "warehouse", "catalog", "table", "rest-port", "state-dir")) {
      if (!a.containsKey(k)) throw new IllegalArgumentException("missing --" + k);
    }
    return a;
  }

  static void log(String msg) {
    System.out.println("[seed-flink] " + msg);
    System.out.flush();
  }
}
