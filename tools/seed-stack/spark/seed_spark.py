"""The seed stack's Spark batch: pyspark 3.5.5 with openlineage-spark 1.53.0 (HTTP transport),
Iceberg 1.10.0 (Hadoop catalog `lake`, the warehouse Flink writes) and Delta 3.3.0 (spark_catalog,
a Derby Hive metastore under the work folder). Run by tools/seed-stack/spark.ts, one step per
process, as separate spark-submit applications would be in production:

    seed_spark.py dev_input           the dev stand-in for the Flink job: lake.shop.orders_by_country
                                      (skipped when it exists; no OpenLineage listener: Flink reports it)
    seed_spark.py revenue_summary     lake.shop.orders_by_country -> lake.shop.revenue_summary (Iceberg),
                                      then reads the summary back and prints it after SUMMARY_MARKER
    seed_spark.py region_targets      Delta region_targets: CREATE TABLE IF NOT EXISTS, then
                                      MERGE INTO ... USING lake.shop.revenue_summary
    seed_spark.py region_performance  Delta region_performance: CREATE OR REPLACE TABLE ... AS SELECT
                                      joining the summary and the targets; then regions_below_target
                                      with DataFrame saveAsTable (mode overwrite)
    seed_spark.py revenue_audit       Iceberg revenue_audit: which data file and position each summary
                                      row was read from (Iceberg's metadata columns _file, _pos), then
                                      an UPDATE marking the rows checked (copy-on-write reads _file, _pos)

Everything comes from the environment (SEED_SPARK_*), set by spark.ts.
"""
import json
import os
import sys

from pyspark.sql import SparkSession

SUMMARY_MARKER = 'SEED_SPARK_SUMMARY '
env = os.environ


def session(app, lineage=True):
    b = (SparkSession.builder.master('local[2]').appName(app)
         .config('spark.jars', env['SEED_SPARK_JARS'])
         .config('spark.driver.memory', env.get('SEED_SPARK_DRIVER_MEMORY', '1g'))
         .config('spark.ui.enabled', 'false')
         .config('spark.ui.showConsoleProgress', 'false')
         .config('spark.sql.shuffle.partitions', '2')
         .config('spark.sql.session.timeZone', 'UTC')
         .config('spark.sql.extensions', 'org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions,'
                                         'io.delta.sql.DeltaSparkSessionExtension')
         # Iceberg: the Hadoop catalog Flink writes to.
         .config('spark.sql.catalog.lake', 'org.apache.iceberg.spark.SparkCatalog')
         .config('spark.sql.catalog.lake.type', 'hadoop')
         .config('spark.sql.catalog.lake.warehouse', env['SEED_SPARK_ICEBERG_WAREHOUSE'])
         # Delta: the session catalog, tables under spark.sql.warehouse.dir, names in a Derby metastore.
         .config('spark.sql.catalog.spark_catalog', 'org.apache.spark.sql.delta.catalog.DeltaCatalog')
         .config('spark.sql.warehouse.dir', env['SEED_SPARK_DELTA_WAREHOUSE'])
         .config('spark.sql.catalogImplementation', 'hive')
         .config('spark.hadoop.javax.jdo.option.ConnectionURL',
                 f"jdbc:derby:;databaseName={env['SEED_SPARK_METASTORE']};create=true")
         .config('spark.driver.extraJavaOptions', f"-Dderby.system.home={os.path.dirname(env['SEED_SPARK_METASTORE'])}"))
    if lineage:
        b = (b.config('spark.extraListeners', 'io.openlineage.spark.agent.OpenLineageSparkListener')
             .config('spark.openlineage.transport.type', 'http')
             .config('spark.openlineage.transport.url', env['SEED_SPARK_OPENLINEAGE_URL'])
             .config('spark.openlineage.transport.endpoint', env['SEED_SPARK_OPENLINEAGE_ENDPOINT'])
             .config('spark.openlineage.namespace', env.get('SEED_SPARK_JOB_NAMESPACE', 'spark-batch'))
             .config('spark.openlineage.appName', app)
             .config('spark.openlineage.facets.columnLineage.disabled', 'false'))
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel('WARN')
    return spark


def finish(spark):
    """Stops the application once Spark's listener bus has delivered every event. The OpenLineage
    listener builds each event on that bus; an SQL execution's end still queued when spark.stop()
    runs is handled on a stopped SparkContext (PlanUtils: "Cannot call methods on a stopped
    SparkContext"), and its COMPLETE went out with no inputs and outputs (seen for the MERGE on this
    2-core machine, where the listener lags behind the job)."""
    spark.sparkContext._jsc.sc().listenerBus().waitUntilEmpty(180_000)
    spark.stop()


def dev_input():
    """What the Flink job writes in the real pipeline: orders and revenue per country (FR holds the
    bad value). Created only when the table does not exist."""
    spark = session('seed_dev_input', lineage=False)
    table = env['SEED_SPARK_INPUT_TABLE']
    if spark.catalog.tableExists(table):
        print(f'{table} exists: left as it is')
    else:
        bad = float(env['SEED_SPARK_BAD_VALUE'])
        spark.sql('CREATE NAMESPACE IF NOT EXISTS lake.shop')
        spark.sql(f'CREATE TABLE {table} (country STRING, region STRING, orders BIGINT, revenue DOUBLE) USING iceberg')
        rows = [('FR', 'EU', 3, 42.5 + 18.0 + bad), ('DE', 'EU', 2, 75.25), ('ES', 'EU', 1, 30.0),
                ('US', 'NA', 2, 120.0), ('CA', 'NA', 1, 55.0), ('JP', 'APAC', 1, 80.0)]
        spark.createDataFrame(rows, 'country STRING, region STRING, orders BIGINT, revenue DOUBLE').writeTo(table).append()
        print(f'{table} created with {len(rows)} rows')
    finish(spark)


def revenue_summary():
    spark = session('revenue_summary')
    spark.sql('CREATE NAMESPACE IF NOT EXISTS lake.shop')
    spark.sql('''CREATE TABLE IF NOT EXISTS lake.shop.revenue_summary (
                   region STRING, countries BIGINT, orders BIGINT, revenue DOUBLE) USING iceberg''')
    spark.sql(f'''INSERT OVERWRITE lake.shop.revenue_summary
                  SELECT region, COUNT(DISTINCT country) AS countries, SUM(orders) AS orders,
                         ROUND(SUM(revenue), 2) AS revenue
                  FROM {env['SEED_SPARK_INPUT_TABLE']}
                  GROUP BY region''')
    rows = [r.asDict() for r in spark.table('lake.shop.revenue_summary').orderBy('region').collect()]
    print(SUMMARY_MARKER + json.dumps(rows), flush=True)
    finish(spark)


def region_targets():
    spark = session('region_targets')
    spark.sql('CREATE TABLE IF NOT EXISTS region_targets (region STRING, target DOUBLE) USING delta')
    # Next period's target: 40.00 per order of this period.
    spark.sql('''MERGE INTO region_targets t
                 USING (SELECT region, ROUND(orders * 40.0, 2) AS target FROM lake.shop.revenue_summary) s
                 ON t.region = s.region
                 WHEN MATCHED THEN UPDATE SET t.target = s.target
                 WHEN NOT MATCHED THEN INSERT (region, target) VALUES (s.region, s.target)''')
    finish(spark)


def region_performance():
    spark = session('region_performance')
    spark.sql('''CREATE OR REPLACE TABLE region_performance USING delta AS
                 SELECT s.region, s.revenue, t.target, ROUND(s.revenue / t.target, 3) AS attainment
                 FROM lake.shop.revenue_summary s JOIN region_targets t ON s.region = t.region''')
    (spark.table('region_performance').where('attainment < 1').select('region', 'attainment')
     .write.format('delta').mode('overwrite').saveAsTable('regions_below_target'))
    finish(spark)


def revenue_audit():
    """Where each summary row lives, from Iceberg's metadata columns; the steward's audit table. Spark
    reports the metadata columns it reads (_file, _pos; and every one of them in the input schema)
    as fields of the summary, and the UPDATE's column lineage depends on _file."""
    spark = session('revenue_audit')
    spark.sql('''CREATE TABLE IF NOT EXISTS lake.shop.revenue_audit (
                   region STRING, revenue DOUBLE, data_file STRING, file_pos BIGINT, checked BOOLEAN) USING iceberg''')
    spark.sql('''INSERT OVERWRITE lake.shop.revenue_audit
                 SELECT region, revenue, _file, _pos, false FROM lake.shop.revenue_summary''')
    spark.sql('UPDATE lake.shop.revenue_audit SET checked = true WHERE revenue IS NOT NULL')
    finish(spark)


if __name__ == '__main__':
    steps = {f.__name__: f for f in (dev_input, revenue_summary, region_targets, region_performance, revenue_audit)}
    if len(sys.argv) != 2 or sys.argv[1] not in steps:
        sys.exit(f'usage: seed_spark.py {"|".join(steps)}')
    steps[sys.argv[1]]()
