/**
 * The processing metrics of one active task and its processor nodes, registered only when the
 * recording level is DEBUG (Kafka's TaskMetrics and ProcessorNodeMetrics at their DEBUG level):
 * in group `stream-task-metrics` (tags `thread-id`, `task-id`) process-rate, process-total and
 * process-latency-avg / process-latency-max (nanoseconds per record); in group
 * `stream-processor-node-metrics` (tags `thread-id`, `task-id`, `processor-node-id`)
 * process-rate and process-total per node. They live in the task's metric scope `task-<id>`,
 * which goes away when the task closes. @internal
 */
import type { Sensor } from '../metrics/sensor.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { ProcessorNode } from './processor-node.js'

const TASK_GROUP = 'stream-task-metrics'
const NODE_GROUP = 'stream-processor-node-metrics'

/** Registers the task's and its nodes' process metrics; returns the task's process sensor, undefined below DEBUG. */
export function addTaskProcessMetrics(
  registry: StreamsMetricsRegistry | undefined,
  taskId: string,
  nodes: Iterable<ProcessorNode>
): Sensor | undefined {
  if (registry === undefined || !registry.shouldRecord('DEBUG')) return undefined
  const scope = `task-${taskId}`
  const sensor = registry.sensor(scope, 'process', 'DEBUG')
  const tags = registry.tags('task-id', taskId)
  const add = (name: string, description: string, measure: (now: number) => number): void => {
    registry.addMetric(scope, { name, group: TASK_GROUP, description, tags }, measure)
  }
  add('process-rate', 'The average number of calls to process per second', now => sensor.rate(now))
  add('process-total', 'The total number of calls to process', () => sensor.count)
  add('process-latency-avg', 'The average latency of calls to process (ns)', now => sensor.avg(now))
  add('process-latency-max', 'The maximum latency of calls to process (ns)', now => sensor.max(now))
  for (const node of nodes) {
    const nodeSensor = registry.sensor(scope, `node:${node.name}:process`, 'DEBUG')
    const nodeTags = registry.tags('task-id', taskId, 'processor-node-id', node.name)
    registry.addMetric(
      scope,
      { name: 'process-rate', group: NODE_GROUP, description: 'The average number of calls to process per second', tags: nodeTags },
      now => nodeSensor.rate(now)
    )
    registry.addMetric(
      scope,
      { name: 'process-total', group: NODE_GROUP, description: 'The total number of calls to process', tags: nodeTags },
      () => nodeSensor.count
    )
    node.processSensor = nodeSensor
  }
  return sensor
}
