// Purpose: uniqueness of every node id (also the index each lookup and MERGE starts from).
// Applied at start-up by src/graph/schema.ts, statement by statement; idempotent (IF NOT EXISTS).
CREATE CONSTRAINT dataset_id IF NOT EXISTS FOR (n:Dataset) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (n:Job) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT run_id IF NOT EXISTS FOR (n:Run) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT field_id IF NOT EXISTS FOR (n:Field) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT event_id IF NOT EXISTS FOR (n:Event) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT job_version_id IF NOT EXISTS FOR (n:JobVersion) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT sql_table_key IF NOT EXISTS FOR (n:SqlTable) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT annotation_id IF NOT EXISTS FOR (n:Annotation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tag_name IF NOT EXISTS FOR (n:Tag) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT log_offset_id IF NOT EXISTS FOR (n:LogOffset) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE;
