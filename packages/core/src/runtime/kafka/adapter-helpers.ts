/**
 * Small helpers the Kafka client adapters (@kstreams/kafkajs, @kstreams/platformatic) share.
 */
import type { TopicPartition } from './ports.js'

/**
 * Runs async tasks one at a time, in call order (a mutex without a lock object): a producer's
 * sends and transaction steps, an admin's calls. A failed task does not stop the ones queued after it.
 */
export class SerialExecutor {
  #tail: Promise<unknown> = Promise.resolve()

  /** Runs `task` after every task submitted before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task)
    this.#tail = result.catch(() => undefined)
    return result
  }

  /** Resolves once everything submitted so far has settled. */
  async idle(): Promise<void> {
    await this.#tail
  }
}

/**
 * Per-partition items grouped by topic, the shape Kafka requests take (`[{ topic, partitions }]`);
 * topics and partitions keep their first-seen order.
 */
export function groupByTopic<T extends TopicPartition>(
  items: readonly T[]
): Array<{
  /** The topic. */
  topic: string
  /** Its items, in first-seen order. */
  items: T[]
}> {
  const byTopic = new Map<string, T[]>()
  for (const item of items) {
    let list = byTopic.get(item.topic)
    if (list === undefined) byTopic.set(item.topic, (list = []))
    list.push(item)
  }
  return [...byTopic].map(([topic, list]) => ({ topic, items: list }))
}
