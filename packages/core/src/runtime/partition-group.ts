/**
 * The input queues of one task. Chooses the next record by the smallest head timestamp across
 * partitions (deterministic timestamp-ordered interleaving) and owns the task's stream time:
 * the largest timestamp taken so far, never decreasing. @internal
 */
import type { RecordQueue, StampedRecord } from './record-queue.js'

export class PartitionGroup {
  readonly #queues = new Map<string, RecordQueue>()
  #streamTime = -1

  static key(topic: string, partition: number): string {
    return `${topic}-${partition}`
  }

  queue(topic: string, partition: number): RecordQueue | undefined {
    return this.#queues.get(PartitionGroup.key(topic, partition))
  }

  addQueue(queue: RecordQueue): void {
    this.#queues.set(PartitionGroup.key(queue.topic, queue.partition), queue)
  }

  get streamTime(): number {
    return this.#streamTime
  }

  /** Records buffered over all partitions. */
  get numBuffered(): number {
    let n = 0
    for (const q of this.#queues.values()) n += q.size
    return n
  }

  hasRecords(): boolean {
    for (const q of this.#queues.values()) if (!q.isEmpty()) return true
    return false
  }

  nextRecord(): { record: StampedRecord; queue: RecordQueue } | undefined {
    let best: RecordQueue | undefined
    for (const q of this.#queues.values()) {
      if (q.isEmpty()) continue
      if (best === undefined || q.headTimestamp < best.headTimestamp) best = q
    }
    if (best === undefined) return undefined
    const record = best.poll()!
    if (record.timestamp > this.#streamTime) this.#streamTime = record.timestamp
    return { record, queue: best }
  }

  clear(): void {
    for (const q of this.#queues.values()) q.clear()
  }

  queues(): RecordQueue[] {
    return [...this.#queues.values()]
  }

  /** Seeds a queue's partition time; stream time becomes the max over all partitions. */
  initializePartitionTime(queue: RecordQueue, time: number): void {
    if (time > queue.partitionTime) queue.partitionTime = time
    if (time > this.#streamTime) this.#streamTime = time
  }
}
