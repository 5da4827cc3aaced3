import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type ProcessorContext, type Record, type StreamThreadExceptionResponse } from '@kstreams/core'
import { bootstrapServers, createTopics, produce, readUntil, tempDir, unique, waitFor, testClient } from './helpers.js'

/** Upper-cases values; throws on "boom" while `shouldThrow()` says so. */
function upper(input: string, output: string, shouldThrow: () => boolean): Topology {
  const S = Serdes.String()
  return new Topology()
    .addSource('in', input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'upper',
      () => {
        let ctx: ProcessorContext<string, string>
        return {
          init(c: ProcessorContext<string, string>) {
            ctx = c
          },
          process(r: Record<string, string>) {
            if (r.value === 'boom' && shouldThrow()) throw new Error('boom')
            ctx.forward(r.withValue(r.value.toUpperCase()))
          }
        }
      },
      'in'
    )
    .addSink('out', output, { keySerializer: S, valueSerializer: S }, 'upper')
}

describe('The uncaught exception handler on a real broker', function () {
  this.timeout(120000)

  it('REPLACE_THREAD: a new thread takes over and the failed record is processed again', async () => {
    const prefix = unique('replace')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 1 },
      { topic: `${prefix}-out`, numPartitions: 1 }
    ])
    const state = await tempDir('kstreams-replace')
    let throws = 1
    const streams = new KafkaStreams(
      upper(`${prefix}-in`, `${prefix}-out`, () => throws-- > 0),
      {
        applicationId: `${prefix}-app`,
        bootstrapServers: bootstrapServers(),
        stateDir: state.path,
        commitIntervalMs: 100,
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 1000
      },
      { client: testClient() }
    )
    const responses: StreamThreadExceptionResponse[] = []
    streams.setUncaughtExceptionHandler(() => {
      responses.push('REPLACE_THREAD')
      return 'REPLACE_THREAD'
    })
    try {
      await streams.start()
      await produce(`${prefix}-in`, [
        { key: 'a', value: 'one' },
        { key: 'b', value: 'boom' },
        { key: 'c', value: 'two' }
      ])
      const out = await readUntil(
        `${prefix}-out`,
        (_k, v) => v!.toString(),
        r => r.includes('BOOM') && r.includes('TWO'),
        90000
      )
      expect(out).to.include.members(['ONE', 'BOOM', 'TWO'])
      expect(responses).to.deep.equal(['REPLACE_THREAD'])
      await waitFor('RUNNING again', () => streams.state() === 'RUNNING', 60000)
    } finally {
      await streams.close()
      await state.remove()
    }
  })

  it('SHUTDOWN_APPLICATION: every instance of the application shuts down in ERROR', async () => {
    const prefix = unique('shutdown-app')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 2 },
      { topic: `${prefix}-out`, numPartitions: 2 }
    ])
    const dirs = [await tempDir('kstreams-sa'), await tempDir('kstreams-sb')]
    const instances = dirs.map(d => {
      const s = new KafkaStreams(
        upper(`${prefix}-in`, `${prefix}-out`, () => true),
        {
          applicationId: `${prefix}-app`,
          bootstrapServers: bootstrapServers(),
          stateDir: d.path,
          commitIntervalMs: 100,
          sessionTimeoutMs: 6000,
          heartbeatIntervalMs: 1000
        },
        { client: testClient() }
      )
      s.setUncaughtExceptionHandler(() => 'SHUTDOWN_APPLICATION')
      return s
    })
    try {
      for (const s of instances) await s.start()
      await waitFor('both RUNNING', () => instances.every(s => s.state() === 'RUNNING'), 60000)
      await produce(`${prefix}-in`, [{ key: 'x', value: 'boom' }])
      await waitFor('both in ERROR', () => instances.every(s => s.state() === 'ERROR'), 60000)
    } finally {
      for (const s of instances) await s.close()
      for (const d of dirs) await d.remove()
    }
  })
})
