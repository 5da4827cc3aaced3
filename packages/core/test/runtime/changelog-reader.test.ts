import { expect } from 'chai'
import { Headers } from '../../src/record.js'
import { ChangelogReader } from '../../src/runtime/changelog-reader.js'
import { TaskId } from '../../src/task-id.js'
import type { FetchedBatch, TopicPartition } from '../../src/runtime/kafka/ports.js'
import type { PartitionReader as PartitionReaderPort } from '../../src/runtime/consumer/consumer-api.js'

/** A changelog partition in memory, read in batches of `batch` records. */
class FakeReader implements PartitionReaderPort {
  positions = new Map<string, number>()
  /** Every assignment, as given. */
  readonly assignments: Array<ReadonlyArray<TopicPartition & { offset: number | undefined; endOffset?: number | undefined }>> = []
  constructor(
    readonly log: Map<string, number>,
    readonly batch = 3
  ) {}
  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined; endOffset?: number | undefined }>): void {
    this.assignments.push(partitions)
    this.positions = new Map(partitions.map(p => [`${p.topic}-${p.partition}`, p.offset ?? 0]))
  }

  async poll(): Promise<FetchedBatch[]> {
    const out: FetchedBatch[] = []
    for (const [key, position] of this.positions) {
      const end = this.log.get(key)!
      const to = Math.min(end, position + this.batch)
      const [topic, partition] = [key.slice(0, key.lastIndexOf('-')), Number(key.slice(key.lastIndexOf('-') + 1))]
      const records = []
      for (let o = position; o < to; o++)
        records.push({
          topic,
          partition,
          offset: o,
          timestamp: o,
          key: Buffer.from(`k${o}`),
          value: Buffer.from(`v${o}`),
          headers: new Headers()
        })
      this.positions.set(key, to)
      out.push({ topic, partition, records, highWatermark: end, nextOffset: to, logStartOffset: 0 })
    }
    return out
  }

  async close(): Promise<void> {}
}

const admin = (log: Map<string, number>) => ({
  endOffsets: async (tps: readonly TopicPartition[]) =>
    new Map(tps.map(p => [`${p.topic}-${p.partition}`, log.get(`${p.topic}-${p.partition}`)!])),
  beginningOffsets: async (tps: readonly TopicPartition[]) => new Map(tps.map(p => [`${p.topic}-${p.partition}`, 0]))
})

describe('ChangelogReader', () => {
  it('a step with nothing to restore yields to the event loop (a loop of steps cannot starve timers and I/O)', async () => {
    const reader = new ChangelogReader({ reader: new FakeReader(new Map()), admin: admin(new Map()) })
    let fired = false
    setTimeout(() => {
      fired = true
    }, 0)
    for (let i = 0; i < 1000 && !fired; i++) await reader.restoreStep(0)
    expect(fired).to.equal(true)
  })

  it('restores from the start offset to the end captured at registration, never past it, reporting progress', async () => {
    const log = new Map([['app-s-changelog-0', 10]])
    let now = 0
    const events: string[] = []
    const applied: string[] = []
    const reader = new ChangelogReader({
      reader: new FakeReader(log),
      admin: admin(log),
      now: () => now,
      listener: {
        onRestoreStart: (_tp, store, start, end) => events.push(`start ${store} ${start} ${end}`),
        onBatchRestored: (_tp, _s, last, n) => events.push(`batch ${last} ${n}`),
        onRestoreEnd: (_tp, _s, total) => events.push(`end ${total}`)
      }
    })
    const complete = await reader.register([
      {
        partition: { topic: 'app-s-changelog', partition: 0 },
        storeName: 's',
        startOffset: 4,
        apply: rs => {
          for (const r of rs) applied.push(r.key.toString())
        }
      }
    ])
    expect(complete).to.deep.equal([])
    log.set('app-s-changelog-0', 20) // written after the restore started: not restored
    now = 1000
    await reader.restoreStep(0)
    const [progress] = reader.progress()
    expect(progress).to.include({ position: 7, endOffset: 10, restored: 3, remaining: 3 })
    expect(progress!.recordsPerSecond).to.equal(3)
    expect(progress!.etaMs).to.equal(1000)
    let done = await reader.restoreStep(0)
    while (done.length === 0) done = await reader.restoreStep(0)
    expect(done).to.deep.equal([{ topic: 'app-s-changelog', partition: 0 }])
    expect(applied).to.deep.equal(['k4', 'k5', 'k6', 'k7', 'k8', 'k9'])
    expect(events).to.deep.equal(['start s 4 10', 'batch 6 3', 'batch 9 3', 'end 6'])
    expect(reader.restoringCount).to.equal(0)
  })

  it('assigns a restoring partition with its end offset (read no further), a standby without one', async () => {
    const log = new Map([
      ['app-s-changelog-0', 10],
      ['app-s-changelog-1', 10]
    ])
    const fake = new FakeReader(log)
    const reader = new ChangelogReader({ reader: fake, admin: admin(log) })
    await reader.register([
      { partition: { topic: 'app-s-changelog', partition: 0 }, storeName: 's', startOffset: 4, apply: () => {} },
      { partition: { topic: 'app-s-changelog', partition: 1 }, storeName: 's', startOffset: 2, apply: () => {}, standby: true }
    ])
    await reader.restoreStep(0)
    expect(fake.assignments[0]).to.deep.equal([
      { topic: 'app-s-changelog', partition: 0, offset: 4, endOffset: 10 },
      { topic: 'app-s-changelog', partition: 1, offset: 2 }
    ])
  })

  it('a checkpoint beyond the end of the changelog is TASK_CORRUPTED (the task is wiped and restored)', async () => {
    const log = new Map([['t-0', 5]])
    const reader = new ChangelogReader({ reader: new FakeReader(log), admin: admin(log) })
    let err: any
    try {
      await reader.register([{ partition: { topic: 't', partition: 0 }, storeName: 's', startOffset: 9, apply: () => {} }])
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'TASK_CORRUPTED')
  })

  it('a standby registration keeps following the changelog and never completes', async () => {
    const log = new Map([['t-0', 4]])
    const applied: string[] = []
    const reader = new ChangelogReader({ reader: new FakeReader(log, 10), admin: admin(log) })
    await reader.register([
      {
        partition: { topic: 't', partition: 0 },
        storeName: 's',
        startOffset: undefined,
        apply: rs => {
          for (const r of rs) applied.push(r.key.toString())
        },
        standby: true
      }
    ])
    expect(await reader.restoreStep(0)).to.deep.equal([])
    log.set('t-0', 6)
    expect(await reader.restoreStep(0)).to.deep.equal([])
    expect(applied).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4', 'k5'])
    expect(reader.restoringCount).to.equal(0)
    expect(reader.readingCount).to.equal(1)
  })

  it('reports a standby to the StandbyUpdateListener: start, each batch with the changelog end, and why it stopped', async () => {
    const log = new Map([
      ['t-0', 5],
      ['t-1', 2]
    ])
    let now = 0
    const events: string[] = []
    const counted: number[] = []
    const steps: number[] = []
    const reader = new ChangelogReader({
      reader: new FakeReader(log, 3),
      admin: admin(log),
      now: () => now,
      onStep: n => steps.push(n),
      standbyListener: {
        onUpdateStart: (tp, store, start) => events.push(`start ${tp.topic}-${tp.partition} ${store} ${start}`),
        onBatchLoaded: (tp, store, id, last, size, end) =>
          events.push(`batch ${tp.topic}-${tp.partition} ${store} ${id.toString()} ${last} ${size} ${end}`),
        onUpdateSuspended: (tp, store, offset, end, reason) =>
          events.push(`suspended ${tp.topic}-${tp.partition} ${store} ${offset} ${end} ${reason}`)
      },
      listener: { onRestoreStart: () => events.push('restore listener called for a standby') }
    })
    const taskId = new TaskId(0, 0)
    const applied = {
      record: (n: number) => {
        counted.push(n)
      }
    }
    await reader.register([
      { partition: { topic: 't', partition: 0 }, storeName: 's', taskId, startOffset: 1, apply: () => {}, standby: true, applied },
      {
        partition: { topic: 't', partition: 1 },
        storeName: 'u',
        taskId: new TaskId(0, 1),
        startOffset: undefined,
        apply: () => {},
        standby: true
      }
    ])
    expect(reader.updatingStandbyTasks()).to.equal(2)
    expect(reader.restoringActiveTasks()).to.equal(0)
    now = 1000
    await reader.restoreStep(0)
    log.set('t-0', 7)
    await reader.restoreStep(0)
    expect(reader.standbyProgress().find(p => p.storeName === 's')).to.deep.include({
      taskId,
      position: 7,
      currentEndOffset: 7,
      lag: 0,
      updated: 6,
      recordsPerSecond: 6
    })
    reader.unregister([{ topic: 't', partition: 0 }], 'PROMOTED')
    reader.unregister([{ topic: 't', partition: 1 }])
    expect(events).to.deep.equal([
      'start t-0 s 1',
      'start t-1 u 0',
      'batch t-0 s 0_0 3 3 5',
      'batch t-1 u 0_1 1 2 2',
      'batch t-0 s 0_0 6 3 7',
      'suspended t-0 s 6 7 PROMOTED',
      'suspended t-1 u 1 2 MIGRATED'
    ])
    expect(counted).to.deep.equal([3, 3])
    expect(steps).to.deep.equal([5, 3])
    expect(reader.standbyProgress()).to.deep.equal([])
  })

  it('names the task of each restoring store in its progress', async () => {
    const log = new Map([['t-0', 10]])
    const reader = new ChangelogReader({ reader: new FakeReader(log), admin: admin(log), now: () => 0 })
    const taskId = new TaskId(1, 0)
    await reader.register([{ partition: { topic: 't', partition: 0 }, storeName: 's', taskId, startOffset: undefined, apply: () => {} }])
    expect(reader.progress()).to.have.length(1)
    expect(reader.progress()[0]!.taskId).to.equal(taskId)
    expect(reader.restoringActiveTasks()).to.equal(1)
    expect(reader.standbyProgress()).to.deep.equal([])
  })

  it('a suspended standby reports the offset of the last record its store applied, not the position past a compacted gap; -1 for none', async () => {
    const log = new Map([
      ['t-0', 20],
      ['t-1', 20]
    ])
    const record = (partition: number, offset: number) => ({
      topic: 't',
      partition,
      offset,
      timestamp: 0,
      key: Buffer.from('k'),
      value: Buffer.from('v'),
      headers: new Headers()
    })
    let polled = false
    const reader: PartitionReaderPort = {
      assign: () => {},
      poll: async () => {
        if (polled) return []
        polled = true
        // Compacted: only offsets 10 and 12 are left below 20; partition 1 holds nothing but a null key.
        return [
          { topic: 't', partition: 0, records: [record(0, 10), record(0, 12)], highWatermark: 20, nextOffset: 20, logStartOffset: 0 },
          { topic: 't', partition: 1, records: [{ ...record(1, 7), key: null }], highWatermark: 20, nextOffset: 20, logStartOffset: 0 }
        ]
      },
      close: async () => {}
    }
    const suspended: string[] = []
    const changelog = new ChangelogReader({
      reader,
      admin: { endOffsets: admin(log).endOffsets, beginningOffsets: async tps => new Map(tps.map(p => [`${p.topic}-${p.partition}`, 5])) },
      standbyListener: { onUpdateSuspended: (tp, _s, offset, end, reason) => suspended.push(`${tp.partition} ${offset} ${end} ${reason}`) }
    })
    const applied: string[] = []
    await changelog.register(
      [0, 1].map(partition => ({
        partition: { topic: 't', partition },
        storeName: 's',
        taskId: new TaskId(0, partition),
        startOffset: undefined,
        apply: (rs: ReadonlyArray<{ key: Buffer }>) => {
          for (const r of rs) applied.push(`${partition}:${r.key.toString()}`)
        },
        standby: true
      }))
    )
    await changelog.restoreStep(0)
    expect(applied).to.deep.equal(['0:k', '0:k'])
    changelog.unregister([
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 }
    ])
    expect(suspended).to.deep.equal(['0 12 20 MIGRATED', '1 -1 20 MIGRATED'])
  })

  it('tells the standby listener nothing when a standby stops at shutdown (unregister with no reason)', async () => {
    const log = new Map([['t-0', 3]])
    const events: string[] = []
    const reader = new ChangelogReader({
      reader: new FakeReader(log),
      admin: admin(log),
      standbyListener: { onUpdateSuspended: () => events.push('suspended') }
    })
    await reader.register([
      {
        partition: { topic: 't', partition: 0 },
        storeName: 's',
        taskId: new TaskId(0, 0),
        startOffset: undefined,
        apply: () => {},
        standby: true
      }
    ])
    reader.unregister([{ topic: 't', partition: 0 }], null)
    expect(events).to.deep.equal([])
    expect(reader.readingCount).to.equal(0)
  })

  it('a standby of a source-topic changelog applies nothing beyond the committed offset, waits there, and goes on when the limit moves', async () => {
    const log = new Map([['t-0', 10]])
    const fake = new FakeReader(log, 4)
    let polls = 0
    const counting: PartitionReaderPort = {
      assign: p => {
        fake.assign(p)
      },
      poll: async () => {
        polls++
        return await fake.poll()
      },
      close: async () => {}
    }
    const reader = new ChangelogReader({ reader: counting, admin: admin(log) })
    const applied: string[] = []
    await reader.register([
      {
        partition: { topic: 't', partition: 0 },
        storeName: 's',
        startOffset: undefined,
        standby: true,
        endOffsetLimit: 3,
        apply: rs => {
          for (const r of rs) applied.push(r.key.toString())
        }
      }
    ])
    await reader.restoreStep(0) // reads 0..3, applies 0..2 only
    await reader.restoreStep(0)
    await reader.restoreStep(0)
    expect(applied).to.deep.equal(['k0', 'k1', 'k2'])
    expect(polls).to.equal(1) // held at the limit: not read again
    expect(reader.heldStandbys()).to.deep.equal([{ topic: 't', partition: 0 }])
    reader.updateStandbyLimits(new Map([['t-0', 2]])) // never backwards
    expect(reader.heldStandbys()).to.have.length(1)
    reader.updateStandbyLimits(new Map([['t-0', 7]]))
    await reader.restoreStep(0) // from 3: reads 3..6
    await reader.restoreStep(0)
    expect(applied).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'])
    expect(reader.standbyProgress()[0]).to.deep.include({ position: 7, lag: 3 })
  })
})
