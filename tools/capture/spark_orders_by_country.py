"""Capture what openlineage-spark 1.53.0 sends for a Spark batch job (pyspark 3.5, local mode).

Orders filtered by status, joined to customers, grouped by country, written with saveAsTable (the
warehouse path, with the catalog name in a symlinks facet), then read back by name. The events
(file transport, one per line) are committed as
test/fixtures/openlineage-spark-1.53-orders-by-country.ndjson. Run:
    python3 -m venv /tmp/ol && /tmp/ol/bin/pip install 'pyspark==3.5.*'
    mvn dependency:get -Dartifact=io.openlineage:openlineage-spark_2.12:1.53.0 -Dtransitive=false
    /tmp/ol/bin/python tools/capture/spark_orders_by_country.py
With OL_NO_COLUMN_LINEAGE=1 the same job runs with the columnLineage facet disabled
(spark.openlineage.facets.columnLineage.disabled), as a deployment that turns it off would: that
capture is test/fixtures/openlineage-spark-1.53-orders-by-country-no-cll.ndjson. With
OL_SPARK_VERSION=1.37.0 (the release before 1.53.0 on Maven Central) the job runs under that
version: test/fixtures/openlineage-spark-1.37-orders-by-country.ndjson (lineage diff tests: an
upgrade from 1.37.0 to 1.53.0 that stopped sending column lineage).
"""
import os, shutil
from pyspark.sql import SparkSession
version = os.environ.get('OL_SPARK_VERSION', '1.53.0')
jar = os.path.expanduser(f'~/.m2/repository/io/openlineage/openlineage-spark_2.12/{version}/openlineage-spark_2.12-{version}.jar')
wh = '/tmp/sparkcap/warehouse'
shutil.rmtree(wh, ignore_errors=True); shutil.rmtree('/tmp/sparkcap/metastore_db', ignore_errors=True)
out = '/tmp/sparkcap/events.ndjson'
if os.path.exists(out): os.remove(out)
spark = (SparkSession.builder.master('local[1]').appName('orders_by_country')
  .config('spark.jars', jar)
  .config('spark.extraListeners', 'io.openlineage.spark.agent.OpenLineageSparkListener')
  .config('spark.openlineage.transport.type', 'file')
  .config('spark.openlineage.transport.location', out)
  .config('spark.openlineage.namespace', 'spark-batch')
  .config('spark.sql.warehouse.dir', wh)
  .config('spark.ui.enabled', 'false')
  .config('spark.openlineage.facets.columnLineage.disabled', 'true' if os.environ.get('OL_NO_COLUMN_LINEAGE') == '1' else 'false')
  .getOrCreate())
spark.createDataFrame([(1, 10, 'paid', 25.0), (2, 11, 'open', 10.0), (3, 10, 'paid', 5.0)], ['order_id', 'customer_id', 'status', 'amount']).write.mode('overwrite').parquet('/tmp/sparkcap/raw/orders')
spark.createDataFrame([(10, 'FR'), (11, 'DE')], ['customer_id', 'country']).write.mode('overwrite').parquet('/tmp/sparkcap/raw/customers')
orders = spark.read.parquet('/tmp/sparkcap/raw/orders')
customers = spark.read.parquet('/tmp/sparkcap/raw/customers')
(orders.where("status = 'paid'").join(customers, 'customer_id').groupBy('country')
  .agg({'amount': 'sum'}).withColumnRenamed('sum(amount)', 'revenue')
  .write.mode('overwrite').saveAsTable('revenue_by_country'))
spark.table('revenue_by_country').where('revenue > 1').write.mode('overwrite').parquet('/tmp/sparkcap/out/top_countries')
spark.stop()
