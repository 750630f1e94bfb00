// Purpose: secondary indexes for lookups that do not start from an id.
// Applied at start-up by src/graph/schema.ts, statement by statement; idempotent (IF NOT EXISTS).
CREATE INDEX dataset_namespace IF NOT EXISTS FOR (n:Dataset) ON (n.namespace);
CREATE INDEX job_namespace IF NOT EXISTS FOR (n:Job) ON (n.namespace);
CREATE INDEX event_run IF NOT EXISTS FOR (n:Event) ON (n.runId);
CREATE INDEX event_time IF NOT EXISTS FOR (n:Event) ON (n.eventTime);
CREATE INDEX job_engine IF NOT EXISTS FOR (n:Job) ON (n.engine);
CREATE FULLTEXT INDEX entity_search_v2 IF NOT EXISTS FOR (n:Dataset|Job|Field) ON EACH [n.name, n.words, n.namespace, n.description];
// Jobs and datasets alone (the catalog: Marquez's search, GraphQL search without FIELD, name
// comparisons): on a graph of wide tables fields are most of entity_search_v2 (XL: 9 M of 9.1 M
// documents), and a prefix such as `c` would have a search rank all of them before filtering.
CREATE FULLTEXT INDEX catalog_search IF NOT EXISTS FOR (n:Dataset|Job) ON EACH [n.name, n.words, n.namespace, n.description];
CREATE INDEX event_job IF NOT EXISTS FOR (n:Event) ON (n.jobId);
CREATE INDEX event_dataset IF NOT EXISTS FOR (n:Event) ON (n.datasetId);
CREATE INDEX job_lineage_unknown IF NOT EXISTS FOR (n:Job) ON (n.lineageUnknown);
CREATE INDEX job_sql_hash IF NOT EXISTS FOR (n:Job) ON (n.sqlHash);
CREATE TEXT INDEX dataset_name_text IF NOT EXISTS FOR (n:Dataset) ON (n.name);
CREATE INDEX sql_table_tail IF NOT EXISTS FOR (n:SqlTable) ON (n.tail);
CREATE INDEX annotation_dataset IF NOT EXISTS FOR (n:Annotation) ON (n.datasetId);
