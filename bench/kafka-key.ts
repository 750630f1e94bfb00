/**
 * The key OpenLineage's Kafka transport gives a message when none is configured (as read in
 * openlineage-python 1.54.0, `transport/kafka.py`; the Java client's documentation names the same):
 * a run event is keyed by its root job, else its parent job, else its own job
 * (`run:<namespace>/<name>`), so that a job's runs and a pipeline's child runs stay in one
 * partition, in order; job and dataset events by their job or dataset. The bench's Kafka clock
 * sends its stream with these keys, as a producer with default settings would.
 */
export function openLineageKey(e: Record<string, unknown>): string {
  type JobRef = { namespace?: string; name?: string };
  type Parent = { job?: JobRef; root?: { job?: JobRef } };
  const dataset = e.dataset as JobRef | undefined;
  const job = e.job as JobRef | undefined;
  if (!e.run && dataset) return `dataset:${dataset.namespace}/${dataset.name}`;
  if (!e.run) return `job:${job?.namespace}/${job?.name}`;
  const parent = (e.run as { facets?: { parent?: Parent } }).facets?.parent;
  const owner = [parent?.root?.job, parent?.job].find((j) => j?.namespace && j.name) ?? job;
  return `run:${owner?.namespace}/${owner?.name}`;
}
