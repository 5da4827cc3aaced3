/**
 * Restore and standby progress on a real broker: a standby instance reports its updates to the
 * StandbyUpdateListener, in standbyProgress() and in the update-* / stream-state-updater-metrics
 * metrics; it hears PROMOTED when it becomes the active task; a new instance restoring the store
 * reports restore-total and restore-records-total. One input partition: one task, 0_0.
 */
import { expect } from 'chai'
import {
  KafkaStreams,
  QueryableStoreTypes,
  Serdes,
  type MetricSnapshot,
  type StandbyUpdateListener,
  type StreamsConfig
} from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()
const KEYS = 200

function build(input: string) {
  const builder = new StreamsBuilder()
  builder
    .stream<string, string>(input, Consumed.with(S, S))
    .groupByKey(Grouped.with(S, S))
    .count(Materialized.as<string, number>('counts').withKeySerde(S))
  return builder.build()
}

const metric = (streams: KafkaStreams, group: string, name: string, taskId?: string): number | undefined =>
  streams
    .metrics()
    .find((m: MetricSnapshot) => m.group === group && m.name === name && (taskId === undefined || m.tags['task-id'] === taskId))?.value

describe('Restore and standby progress on a real broker (listeners, standbyProgress, KIP-869 metrics)', function () {
  this.timeout(180000)

  it('a standby reports its updates and its promotion; a new instance reports what it restored', async () => {
    const prefix = unique('restoreobs')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 1 }])
    const dirs = await Promise.all([0, 1, 2].map(async () => await tempDir('kstreams-restoreobs')))
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: 200,
      numStandbyReplicas: 1,
      metricsRecordingLevel: 'DEBUG'
    })
    const events = new Map<KafkaStreams, string[]>()
    const loaded = new Map<KafkaStreams, number>()
    const listen = (streams: KafkaStreams): KafkaStreams => {
      const log: string[] = []
      events.set(streams, log)
      loaded.set(streams, 0)
      const listener: StandbyUpdateListener = {
        onUpdateStart: (tp, store) => log.push(`start ${tp.partition} ${store}`),
        onBatchLoaded: (_tp, _store, taskId, _last, size) => {
          loaded.set(streams, loaded.get(streams)! + size)
          if (!log.includes(`batch ${taskId.toString()}`)) log.push(`batch ${taskId.toString()}`)
        },
        onUpdateSuspended: (tp, store, offset, end, reason) => log.push(`suspended ${tp.partition} ${store} ${offset} ${end} ${reason}`)
      }
      streams.setStandbyUpdateListener(listener)
      return streams
    }
    const first = listen(new KafkaStreams(build(input), config(dirs[0]!.path), { client: testClient() }))
    const second = listen(new KafkaStreams(build(input), config(dirs[1]!.path), { client: testClient() }))
    let third: KafkaStreams | undefined
    const producer = kafka().producer()
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await producer.connect()
      await producer.send({ topic: input, messages: Array.from({ length: KEYS }, (_, i) => ({ key: `k${i}`, value: 'x' })) })
      await waitFor('every key counted on the first instance', () => countOf(first) === KEYS, 60000)
      expect(metric(first, 'stream-task-metrics', 'restore-total', '0_0')).to.equal(0)

      // The second instance joins. Both are within acceptableRecoveryLag of the task, so either
      // may get the active task (as with Kafka's assignor); the other gets the standby.
      await second.start()
      const caughtUp = (s: KafkaStreams): boolean => {
        const p = s.standbyProgress()
        return p.length === 1 && p[0]!.position >= KEYS && p[0]!.lag === 0
      }
      const seen = (): string =>
        JSON.stringify({
          first: first.standbyProgress(),
          second: second.standbyProgress(),
          states: [first.state(), second.state()],
          events: [...events.values()]
        })
      await waitFor('a standby caught up', () => caughtUp(first) !== caughtUp(second), 60000).catch((err: Error) => {
        throw new Error(`${err.message}; saw ${seen()}`)
      })
      const [standby, active] = caughtUp(first) ? [first, second] : [second, first]
      const [progress] = standby.standbyProgress()
      expect(progress).to.deep.include({ storeName: 'counts', updated: KEYS, currentEndOffset: KEYS })
      expect(progress!.taskId?.toString()).to.equal('0_0')
      expect(loaded.get(standby)).to.be.at.least(KEYS)
      expect(events.get(standby)).to.include.members(['start 0 counts', 'batch 0_0'])
      expect(metric(standby, 'stream-task-metrics', 'update-total', '0_0')).to.equal(KEYS)
      expect(metric(standby, 'stream-state-updater-metrics', 'standby-updating-tasks')).to.equal(1)
      expect(metric(standby, 'stream-state-updater-metrics', 'restore-records-total')).to.be.at.least(KEYS)
      expect(active.standbyProgress()).to.deep.equal([])

      // The active instance leaves the group (at once: leaveGroup): the standby becomes the active task.
      await active.close({ leaveGroup: true })
      const promoted = (): string | undefined => events.get(standby)!.find(e => e.endsWith('PROMOTED'))
      await waitFor('the standby promoted', () => promoted() !== undefined, 60000)
      expect(promoted()).to.equal(`suspended 0 counts ${KEYS - 1} ${KEYS} PROMOTED`)
      await waitFor(
        'the standby RUNNING with the active task',
        () => standby.state() === 'RUNNING' && metric(standby, 'stream-task-metrics', 'restore-total', '0_0') !== undefined,
        60000
      )
      // Its in-memory store came over from the standby: nothing left to restore.
      expect(metric(standby, 'stream-task-metrics', 'restore-total', '0_0')).to.equal(0)
      expect(metric(standby, 'stream-task-metrics', 'update-total', '0_0')).to.equal(undefined)
      await standby.close({ leaveGroup: true })

      // A new instance with empty state restores the whole changelog and says so.
      third = new KafkaStreams(build(input), config(dirs[2]!.path), { client: testClient() })
      await third.start()
      await waitFor(
        'third RUNNING',
        () => third!.state() === 'RUNNING' && metric(third!, 'stream-task-metrics', 'restore-total', '0_0') === KEYS,
        60000
      )
      expect(metric(third, 'stream-task-metrics', 'restore-remaining-records-total', '0_0')).to.equal(0)
      expect(metric(third, 'stream-state-updater-metrics', 'restore-records-total')).to.equal(KEYS)
      expect(metric(third, 'stream-state-updater-metrics', 'active-restoring-tasks')).to.equal(0)
    } finally {
      await producer.disconnect()
      for (const s of [first, second, third]) await s?.close()
      for (const d of dirs) await d.remove()
    }
  })
})

/** Distinct keys counted in the instance's local store. */
function countOf(streams: KafkaStreams): number {
  try {
    return [...streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).all()].length
  } catch {
    return 0
  }
}
