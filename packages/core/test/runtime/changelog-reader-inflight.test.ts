/**
 * A restore registered again while a standby's fetch is in flight must not apply the stale batch
 * (read from the old registration's position): everything before that position would be lost.
 */
import { expect } from 'chai'
import { Headers } from '../../src/record.js'
import { ChangelogReader } from '../../src/runtime/changelog-reader.js'
import type { FetchedBatch, TopicPartition } from '../../src/runtime/kafka/ports.js'
import type { PartitionReader as PartitionReaderPort } from '../../src/runtime/consumer/consumer-api.js'

/** A reader whose poll is held until `release()`; it reads from where it was assigned up to offset 10. */
class SlowReader implements PartitionReaderPort {
  position = 0
  release: () => void = () => {}
  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined }>): void {
    this.position = partitions[0]?.offset ?? 0
  }
  async poll(): Promise<FetchedBatch[]> {
    await new Promise<void>(resolve => {
      this.release = resolve
    })
    const from = this.position
    const records = []
    for (let o = from; o < 10; o++)
      records.push({
        topic: 't',
        partition: 0,
        offset: o,
        timestamp: 0,
        key: Buffer.from(`k${o}`),
        value: Buffer.from('v'),
        headers: new Headers()
      })
    this.position = 10
    return [{ topic: 't', partition: 0, records, highWatermark: 10, nextOffset: 10, logStartOffset: 0 }]
  }
  async close(): Promise<void> {}
}
const admin = { endOffsets: async () => new Map([['t-0', 10]]), beginningOffsets: async () => new Map([['t-0', 0]]) }

describe('ChangelogReader: a partition registered again while a poll is in flight', () => {
  it('a restore registered from 0 while a standby fetch at 6 is in flight restores 0..9 (the stale batch is dropped)', async () => {
    const reader = new SlowReader()
    const changelog = new ChangelogReader({ reader, admin })
    await changelog.register([{ partition: { topic: 't', partition: 0 }, storeName: 's', startOffset: 6, apply: () => {}, standby: true }])
    const step = changelog.restoreStep(0)
    await new Promise(resolve => setTimeout(resolve, 5))
    changelog.unregister([{ topic: 't', partition: 0 }])
    const applied: string[] = []
    await changelog.register([
      {
        partition: { topic: 't', partition: 0 },
        storeName: 's',
        startOffset: undefined,
        apply: rs => {
          for (const r of rs) applied.push(r.key.toString())
        }
      }
    ])
    reader.release()
    await step
    for (let i = 0; i < 3 && changelog.restoringCount > 0; i++) {
      const p = changelog.restoreStep(0)
      await new Promise(resolve => setTimeout(resolve, 5))
      reader.release()
      await p
    }
    expect(applied).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9'])
  })
})
