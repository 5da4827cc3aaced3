/**
 * End to end: a KafkaStreams application of @kstreams/core on this adapter against a real broker,
 * under exactly_once_v2 (transactions, TxnOffsetCommit with the group generation) and
 * at_least_once. A Processor API topology upper-cases every value; the output is read back
 * READ_COMMITTED and the group's committed offsets are checked.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import {
  KafkaStreams,
  Serdes,
  Topology,
  type KafkaStreamsState,
  type ProcessingGuarantee,
  type ProcessorContext,
  type Record
} from '@kstreams/core'
import { platformatic } from '../src/index.js'
import {
  bootstrapServers,
  Cleanup,
  createTopic,
  describeWithBroker,
  readPartition,
  record,
  testSettings,
  uniqueName,
  waitFor
} from '../../../tests/adapter-contract/contract-env.js'

function upperCaseTopology(input: string, output: string): Topology {
  return new Topology()
    .addSource('in', input, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
    .addProcessor(
      'upper',
      () => {
        let context: ProcessorContext<string, string>
        return {
          init(c: ProcessorContext<string, string>) {
            context = c
          },
          process(r: Record<string, string>) {
            context.forward(r.withValue(r.value.toUpperCase()))
          }
        }
      },
      'in'
    )
    .addSink('out', output, { keySerializer: Serdes.String(), valueSerializer: Serdes.String() }, 'upper')
}

describeWithBroker('KafkaStreams on @kstreams/platformatic (broker)', function () {
  this.timeout(120_000)
  let cleanup: Cleanup

  beforeEach(() => {
    cleanup = new Cleanup()
  })
  afterEach(async () => {
    await cleanup.run()
  })

  for (const guarantee of ['exactly_once_v2', 'at_least_once'] as ProcessingGuarantee[]) {
    it(`processes every record once under ${guarantee}, commits the group's offsets and closes cleanly`, async () => {
      const factory = platformatic()(testSettings())
      const admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => {
        await a.close()
      })
      const fetcher = cleanup.add(factory.fetcher({ clientId: uniqueName('fetcher') }), async f => {
        await f.close()
      })
      const input = await createTopic(admin, 2, 'in')
      const output = await createTopic(admin, 2, 'out')
      const stateDir = await mkdtemp(join(tmpdir(), 'kstreams-plt-'))
      cleanup.add(stateDir, async dir => {
        await rm(dir, { recursive: true, force: true })
      })
      const applicationId = uniqueName('plt-app')
      const streams = new KafkaStreams(
        upperCaseTopology(input, output),
        {
          applicationId,
          bootstrapServers: bootstrapServers()!,
          stateDir,
          commitIntervalMs: 100,
          processingGuarantee: guarantee
        },
        { client: platformatic() }
      )
      const states: KafkaStreamsState[] = []
      streams.setStateListener(to => states.push(to))
      cleanup.add(streams, async s => {
        await s.close()
      })

      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60_000)
      const producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => {
        await p.close()
      })
      const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']
      await producer.send(words.map((w, i) => record(input, i % 2, w, `k${i}`)))

      const seen: string[] = []
      await waitFor(
        'all output',
        async () => {
          seen.length = 0
          for (const partition of [0, 1])
            seen.push(...(await readPartition(fetcher, output, partition, 'READ_COMMITTED')).map(r => r.value!.toString()))
          return seen.length >= words.length
        },
        60_000,
        () => seen.join(',')
      )
      expect(seen.sort()).to.deep.equal(words.map(w => w.toUpperCase()).sort())
      // Written in transactions under exactly_once_v2: the markers take offsets of their own.
      const ends = await admin.endOffsets([
        { topic: output, partition: 0 },
        { topic: output, partition: 1 }
      ])
      const endSum = [...ends.values()].reduce((a, b) => a + b, 0)
      if (guarantee === 'exactly_once_v2') expect(endSum).to.be.greaterThan(words.length)
      else expect(endSum).to.equal(words.length)

      await waitFor(
        'committed input offsets',
        async () => {
          const committed = await admin.committedOffsets(applicationId, [
            { topic: input, partition: 0 },
            { topic: input, partition: 1 }
          ])
          return committed.get(`${input}-0`) === 3 && committed.get(`${input}-1`) === 3
        },
        30_000
      )
      expect(await streams.close()).to.equal(true)
      expect(states).to.include('RUNNING')
      expect(states.at(-1)).to.equal('NOT_RUNNING')
    })
  }
})
