/**
 * Restore and standby progress on a real broker: a standby instance reports its updates to the
 * StandbyUpdateListener, in standbyProgress() and in the update-* / stream-state-metrics
 * metrics; it hears PROMOTED when it becomes the active task; a new instance restoring the store
 * reports restore-total and restore-records-total. One input partition: one task, 0_0.
 */
import { expect } from 'chai'
import { KafkaStreams, QueryableStoreTypes, Serdes, type MetricSnapshot, type StandbyUpdateListener, type StreamsConfig } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, tempDir, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const KEYS = 200

function build (input: string) {
  const builder = new StreamsBuilder()
  builder.stream<string, string>(input, Consumed.with(S, S)).groupByKey(Grouped.with(S, S)).count(Materialized.as<string, number>('counts').withKeySerde(S))
  return builder.build()
}

const metric = (streams: KafkaStreams, group: string, name: string, taskId?: string): number | undefined =>
  streams.metrics().find((m: MetricSnapshot) => m.group === group && m.name === name && (taskId === undefined || m.tags['task-id'] === taskId))?.value

describe('Restore and standby progress on a real broker (listeners, standbyProgress, KIP-869 metrics)', function () {
  this.timeout(180000)

  it('a standby reports its updates and its promotion; a new instance reports what it restored', async () => {
    const prefix = unique('restoreobs')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 1 }])
    const dirs = await Promise.all([0, 1, 2].map(async () => await tempDir('kstreams-restoreobs')))
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir, commitIntervalMs: 200, numStandbyReplicas: 1, metricsRecordingLevel: 'DEBUG'
    })
    const events: string[] = []
    let loaded = 0
    const listener: StandbyUpdateListener = {
      onUpdateStart: (tp, store) => events.push(`start ${tp.partition} ${store}`),
      onBatchLoaded: (_tp, _store, taskId, _last, size) => { loaded += size; if (!events.includes(`batch ${taskId.toString()}`)) events.push(`batch ${taskId.toString()}`) },
      onUpdateSuspended: (tp, store, offset, end, reason) => events.push(`suspended ${tp.partition} ${store} ${offset} ${end} ${reason}`)
    }
    const first = new KafkaStreams(build(input), config(dirs[0]!.path))
    const second = new KafkaStreams(build(input), config(dirs[1]!.path))
    second.setStandbyUpdateListener(listener)
    let third: KafkaStreams | undefined
    const producer = kafka().producer()
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await producer.connect()
      await producer.send({ topic: input, messages: Array.from({ length: KEYS }, (_, i) => ({ key: `k${i}`, value: 'x' })) })
      await waitFor('every key counted on the first instance', () => countOf(first) === KEYS, 60000)
      expect(metric(first, 'stream-task-metrics', 'restore-total', '0_0')).to.equal(0)

      // The second instance joins: the first keeps the active task (caught up), the second gets a standby.
      await second.start()
      await waitFor('the standby caught up', () => {
        const p = second.standbyProgress()
        return p.length === 1 && p[0]!.position >= KEYS && p[0]!.lag === 0
      }, 60000)
      const [progress] = second.standbyProgress()
      expect(progress).to.deep.include({ storeName: 'counts', updated: KEYS, currentEndOffset: KEYS })
      expect(progress!.taskId?.toString()).to.equal('0_0')
      expect(loaded).to.equal(KEYS)
      expect(events.slice(0, 2)).to.deep.equal(['start 0 counts', 'batch 0_0'])
      expect(metric(second, 'stream-task-metrics', 'update-total', '0_0')).to.equal(KEYS)
      expect(metric(second, 'stream-state-metrics', 'restoring-standby-tasks')).to.equal(1)
      expect(metric(second, 'stream-state-metrics', 'restore-records-total')).to.be.at.least(KEYS)
      expect(first.standbyProgress()).to.deep.equal([])

      // The first instance leaves: the standby becomes the active task.
      await first.close()
      await waitFor('the standby promoted', () => events.some(e => e.includes('PROMOTED')), 60000)
      expect(events.filter(e => e.startsWith('suspended'))).to.deep.equal([`suspended 0 counts ${KEYS - 1} ${KEYS} PROMOTED`])
      await waitFor('second RUNNING with the active task', () => second.state() === 'RUNNING' && metric(second, 'stream-task-metrics', 'restore-total', '0_0') !== undefined, 60000)
      // Its in-memory store came over from the standby: nothing left to restore.
      expect(metric(second, 'stream-task-metrics', 'restore-total', '0_0')).to.equal(0)
      expect(metric(second, 'stream-task-metrics', 'update-total', '0_0')).to.equal(undefined)
      await second.close()

      // A new instance with empty state restores the whole changelog and says so.
      third = new KafkaStreams(build(input), config(dirs[2]!.path))
      await third.start()
      await waitFor('third RUNNING', () => third!.state() === 'RUNNING' && metric(third!, 'stream-task-metrics', 'restore-total', '0_0') === KEYS, 60000)
      expect(metric(third, 'stream-task-metrics', 'restore-remaining-records-total', '0_0')).to.equal(0)
      expect(metric(third, 'stream-state-metrics', 'restore-records-total')).to.equal(KEYS)
      expect(metric(third, 'stream-state-metrics', 'restoring-active-tasks')).to.equal(0)
    } finally {
      await producer.disconnect()
      for (const s of [first, second, third]) await s?.close()
      for (const d of dirs) await d.remove()
    }
  })
})

/** Distinct keys counted in the instance's local store. */
function countOf (streams: KafkaStreams): number {
  try {
    return [...streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).all()].length
  } catch {
    return 0
  }
}
