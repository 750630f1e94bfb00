package tributary.marquezclients;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import marquez.client.MarquezClient;
import marquez.client.MarquezHttpException;
import marquez.client.Utils;
import marquez.client.models.Dataset;
import marquez.client.models.DatasetFieldId;
import marquez.client.models.DatasetId;
import marquez.client.models.DatasetVersion;
import marquez.client.models.DatasetVersionId;
import marquez.client.models.Job;
import marquez.client.models.JobId;
import marquez.client.models.JobVersion;
import marquez.client.models.NodeId;
import marquez.client.models.Run;
import marquez.client.models.SearchFilter;
import marquez.client.models.SearchSort;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;

/**
 * Calls the read methods of Marquez's own Java client (marquez.client.MarquezClient, tag 0.50.0)
 * against a Marquez-compatible server and prints one JSON document
 * {@code {call: {ok, status, result, error, request}}}. {@code result} is the client's model
 * object serialized with the client's own mapper ({@link Utils#getMapper()}: Dropwizard Jackson,
 * NON_NULL, ISO dates), i.e. what the client understood, not the raw body. {@code status} and
 * {@code request} come from HttpClient interceptors added through the client's builder hook.
 *
 * <p>Usage: {@code Main --url http://127.0.0.1:5100 [--plan plan.json] [--namespace NS] [--job J]
 * [--dataset D] [--field F] [--run-id UUID] [--source S] [--depth N] [--search Q] [--out FILE]}
 */
public final class Main {
  private static final ThreadLocal<Integer> lastStatus = new ThreadLocal<>();
  private static final ThreadLocal<String> lastRequest = new ThreadLocal<>();

  private Main() {}

  public static void main(String[] argv) throws Exception {
    final Map<String, String> args = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("unexpected " + argv[i]);
      args.put(argv[i].substring(2), argv[i + 1]);
    }
    final String url = args.get("url");
    if (url == null) throw new IllegalArgumentException("--url is required");
    final ObjectMapper mapper = Utils.getMapper();
    final Map<String, Object> plan = new HashMap<>();
    if (args.containsKey("plan")) {
      plan.putAll(
          mapper.readValue(
              Files.readString(Path.of(args.get("plan"))), new TypeReference<Map<String, Object>>() {}));
    }
    final String[][] flags = {
      {"namespace", "namespace"}, {"job", "job"}, {"dataset", "dataset"}, {"field", "field"},
      {"run-id", "runId"}, {"source", "source"}, {"dataset-version", "datasetVersion"},
      {"job-version", "jobVersion"}, {"depth", "depth"}, {"search", "search"}
    };
    for (String[] f : flags) if (args.containsKey(f[0])) plan.put(f[1], args.get(f[0]));

    final String ns = str(plan, "namespace");
    final String job = str(plan, "job");
    final String ds = str(plan, "dataset");
    final String field = str(plan, "field");
    final int depth = plan.get("depth") == null ? 20 : Integer.parseInt(plan.get("depth").toString());

    final MarquezClient client =
        MarquezClient.builder()
            .baseUrl(url)
            .customize(
                b ->
                    b.addInterceptorFirst(
                            (HttpRequest req, org.apache.http.protocol.HttpContext ctx) -> {
                              lastRequest.set(
                                  req.getRequestLine().getMethod()
                                      + " "
                                      + req.getRequestLine().getUri().replaceFirst("^https?://[^/]+", ""));
                              lastStatus.set(null);
                            })
                        .addInterceptorLast(
                            (HttpResponse res, org.apache.http.protocol.HttpContext ctx) ->
                                lastStatus.set(res.getStatusLine().getStatusCode())))
            .build();

    final ObjectNode out = JsonNodeFactory.instance.objectNode();
    final Caller c = new Caller(out, mapper);

    c.call("listNamespaces", () -> client.listNamespaces());
    c.call("getNamespace", () -> client.getNamespace(ns));
    c.call("listSources", () -> client.listSources());
    c.call("listDatasets", () -> client.listDatasets(ns));
    final Dataset dataset = c.call("getDataset", () -> client.getDataset(ns, ds));
    final String source =
        Optional.ofNullable(str(plan, "source"))
            .orElse(dataset == null ? null : dataset.getSourceName());
    c.call("getSource", () -> client.getSource(source));
    final List<DatasetVersion> versions =
        c.call("listDatasetVersions", () -> client.listDatasetVersions(ns, ds, 100, 0));
    final String dsVersion =
        Optional.ofNullable(str(plan, "datasetVersion"))
            .orElse(versions == null || versions.isEmpty() ? null : versions.get(0).getVersion());
    c.call("getDatasetVersion", () -> client.getDatasetVersion(ns, ds, dsVersion));
    c.call("listJobs", () -> client.listJobs(ns));
    final Job jobObj = c.call("getJob", () -> client.getJob(ns, job));
    final List<JobVersion> jobVersions =
        c.call("listJobVersions", () -> client.listJobVersions(ns, job, 100, 0));
    // Job.currentVersion is the job_versions row uuid, while /versions/{version} takes
    // JobVersion.version (the version hash): Marquez answers 404 to the former. Both are asked.
    String jobVersion = str(plan, "jobVersion");
    if (jobVersion == null && jobVersions != null && !jobVersions.isEmpty()) {
      jobVersion = jobVersions.get(0).getVersion().toString();
    }
    final String jv = jobVersion;
    c.call("getJobVersion", () -> client.getJobVersion(ns, job, jv));
    final String currentJobVersion =
        jobObj == null ? null : jobObj.getCurrentVersion().map(UUID::toString).orElse(null);
    c.call("getJobVersion_currentVersion", () -> client.getJobVersion(ns, job, currentJobVersion));
    final List<Run> runs = c.call("listRuns", () -> client.listRuns(ns, job));
    String runId = str(plan, "runId");
    if (runId == null && jobObj != null) {
      runId = jobObj.getLatestRun().map(Run::getId).orElse(null);
    }
    if (runId == null && runs != null && !runs.isEmpty()) runId = runs.get(0).getId();
    final String rid = runId;
    c.call("getRun", () -> client.getRun(rid));

    final NodeId dsNode = NodeId.of(new DatasetId(ns, ds));
    final NodeId jobNode = NodeId.of(new JobId(ns, job));
    final NodeId fieldNode = NodeId.of(new DatasetFieldId(ns, ds, field));
    c.call("getLineage_dataset", () -> client.getLineage(dsNode, depth));
    c.call("getLineage_job", () -> client.getLineage(jobNode, depth));
    c.call("getColumnLineage_dataset", () -> client.getColumnLineage(dsNode, depth, false));
    c.call("getColumnLineage_dataset_downstream", () -> client.getColumnLineage(dsNode, depth, true));
    c.call("getColumnLineage_field", () -> client.getColumnLineage(fieldNode, depth, false));
    c.call("getColumnLineage_field_downstream", () -> client.getColumnLineage(fieldNode, depth, true));
    // Versioned column lineage takes Dataset.currentVersion (the dataset_versions row uuid), not
    // DatasetVersion.version; both are asked.
    final UUID dsCurrent = dataset == null ? null : dataset.getCurrentVersion().orElse(null);
    c.call(
        "getColumnLineage_dataset_version",
        () -> client.getColumnLineage(NodeId.of(new DatasetVersionId(ns, ds, UUID.fromString(dsVersion))), depth, false));
    c.call(
        "getColumnLineage_dataset_currentVersion",
        () -> client.getColumnLineage(NodeId.of(new DatasetVersionId(ns, ds, dsCurrent)), depth, false));
    c.call("getColumnLineage_job", () -> client.getColumnLineage(jobNode, depth, false));

    final String q = Optional.ofNullable(str(plan, "search")).orElse(ds == null ? "a" : ds);
    // MarquezUrl.toSearchUrl puts `sort` only when `filter` is set (so search(q, sort) drops it) and
    // then puts it even when null, which ImmutableMap rejects: search(q, filter) throws an NPE
    // before any request. Only search(q, filter, sort, limit) sends both.
    c.call("search", () -> client.search(q));
    c.call("search_sort", () -> client.search(q, SearchSort.UPDATE_AT));
    c.call("search_filter", () -> client.search(q, SearchFilter.DATASET));
    c.call("search_filter_sort", () -> client.search(q, SearchFilter.JOB, SearchSort.NAME, 10));
    c.call("listLineageEvents", () -> client.listLineageEvents());
    final ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    c.call(
        "listLineageEvents_window",
        () ->
            client.listLineageEvents(
                MarquezClient.SortDirection.ASC, now.plusDays(1), now.minusYears(10), 50));
    c.call("listTags", () -> client.listTags());

    mapper.enable(SerializationFeature.INDENT_OUTPUT);
    final String text = mapper.writeValueAsString(out) + "\n";
    if (args.containsKey("out")) {
      // getBytes replaces what UTF-8 cannot encode (a lone surrogate another test's event carried)
      // instead of throwing, as Files.writeString does.
      Files.write(Path.of(args.get("out")), text.getBytes(StandardCharsets.UTF_8));
    } else {
      System.out.print(text);
      System.out.flush();
    }
    mapper.disable(SerializationFeature.INDENT_OUTPUT);
    int ok = 0;
    for (JsonNode v : out) if (v.get("ok").asBoolean()) ok++;
    System.err.println("marquez-java 0.50.0 (from source): " + ok + "/" + out.size() + " calls ok");
  }

  private static String str(Map<String, Object> plan, String key) {
    final Object v = plan.get(key);
    return v == null ? null : v.toString();
  }

  private static final class Caller {
    private final ObjectNode out;
    private final ObjectMapper mapper;

    Caller(ObjectNode out, ObjectMapper mapper) {
      this.out = out;
      this.mapper = mapper;
    }

    <T> T call(String name, Callable<T> fn) {
      lastStatus.set(null);
      lastRequest.set(null);
      final ObjectNode entry = out.putObject(name);
      try {
        final T result = fn.call();
        entry.put("ok", true);
        putStatus(entry);
        entry.set("result", mapper.valueToTree(result));
        entry.putNull("error");
        entry.put("request", lastRequest.get());
        return result;
      } catch (Throwable e) {
        entry.put("ok", false);
        putStatus(entry);
        entry.putNull("result");
        entry.put("error", describe(e));
        entry.put("request", lastRequest.get());
        if (lastStatus.get() == null) {
          final StringWriter sw = new StringWriter();
          e.printStackTrace(new PrintWriter(sw));
          final String[] lines = sw.toString().split("\n");
          entry.put("trace", String.join("\n", java.util.Arrays.copyOf(lines, Math.min(6, lines.length))));
        }
        return null;
      }
    }

    private static void putStatus(ObjectNode entry) {
      final Integer s = lastStatus.get();
      if (s == null) entry.putNull("status");
      else entry.put("status", s);
    }

    private static String describe(Throwable e) {
      if (e instanceof MarquezHttpException) {
        final MarquezHttpException h = (MarquezHttpException) e;
        return "MarquezHttpException: code="
            + h.getCode()
            + " message="
            + h.getMessage()
            + (h.getDetails() == null ? "" : " details=" + h.getDetails());
      }
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
