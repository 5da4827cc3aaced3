import { expect } from 'chai'
import {
  Headers,
  ManualClock,
  type Record,
  Serdes,
  TaskId,
  Topology,
  resolveStreamsConfig,
  type ProcessorContext
} from '../../src/index.js'
import { StreamTask, TOPOLOGY_DEF, type CollectedRecord, type ConsumedRecord } from '../../src/internal.js'

const S = Serdes.String()

function raw(topic: string, partition: number, offset: number, timestamp: number, value: string): ConsumedRecord {
  return { topic, partition, offset, timestamp, key: Buffer.from('k'), value: Buffer.from(value), headers: new Headers() }
}

function joinLikeTask(seen: string[], sent: CollectedRecord[]): StreamTask {
  const topology = new Topology()
    .addSource('left', 'left', { keyDeserializer: S, valueDeserializer: S })
    .addSource('right', 'right', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'merge',
      () => {
        let ctx: ProcessorContext<string, string>
        return {
          init(c: ProcessorContext<string, string>) {
            ctx = c
          },
          process(r: Record<string, string>) {
            seen.push(`${r.value}@${r.timestamp} st=${ctx.currentStreamTimeMs()}`)
            ctx.forward(r)
          }
        }
      },
      'left',
      'right'
    )
    .addSink('sink', 'out', { keySerializer: S, valueSerializer: S }, 'merge')
  const def = topology[TOPOLOGY_DEF]()
  const task = new StreamTask({
    id: new TaskId(0, 1),
    topology: def,
    subtopologies: [0],
    config: resolveStreamsConfig({ applicationId: 'app' }),
    clock: new ManualClock(0),
    collector: {
      send: r => {
        sent.push(r)
      },
      partitionsFor: () => 4
    },
    stateDir: undefined,
    globalStores: new Map()
  })
  task.initializeStores()
  task.initializeTopology()
  return task
}

describe('StreamTask', () => {
  it('chooses the buffered record with the smallest timestamp across partitions; stream time never decreases', () => {
    const seen: string[] = []
    const sent: CollectedRecord[] = []
    const task = joinLikeTask(seen, sent)
    task.addRecords('left', 1, [raw('left', 1, 0, 10, 'L0'), raw('left', 1, 1, 30, 'L1'), raw('left', 1, 2, 5, 'L2')])
    task.addRecords('right', 1, [raw('right', 1, 0, 20, 'R0'), raw('right', 1, 1, 40, 'R1')])
    while (task.process()) {
      /* drain */
    }
    // heads compared by timestamp; within a partition order is kept (L2@5 after L1@30)
    expect(seen).to.deep.equal(['L0@10 st=10', 'R0@20 st=20', 'L1@30 st=30', 'L2@5 st=30', 'R1@40 st=40'])
    expect(sent.map(r => [r.topic, r.value?.toString(), r.timestamp])).to.deep.equal([
      ['out', 'L0', 10],
      ['out', 'R0', 20],
      ['out', 'L1', 30],
      ['out', 'L2', 5],
      ['out', 'R1', 40]
    ])
    expect(task.prepareCommit()).to.deep.equal([
      { topic: 'left', partition: 1, offset: 3 },
      { topic: 'right', partition: 1, offset: 2 }
    ])
    expect(task.commitNeeded).to.equal(true)
    task.postCommit()
    expect(task.commitNeeded).to.equal(false)
    task.close()
    expect(task.state).to.equal('CLOSED')
  })

  it('rejects records of a topic it does not read, naming the topic', () => {
    const task = joinLikeTask([], [])
    expect(() => task.addRecords('other', 0, []))
      .to.throw(/other/)
      .with.property('code', 'UNKNOWN_TOPIC')
    task.close()
  })

  it('a processor commit request is visible to the task', () => {
    const topology = new Topology().addSource('s', 'in', { keyDeserializer: S, valueDeserializer: S }).addProcessor(
      'p',
      () => {
        let ctx: ProcessorContext
        return {
          init(c: ProcessorContext) {
            ctx = c
          },
          process() {
            ctx.commit()
          }
        }
      },
      's'
    )
    const task = new StreamTask({
      id: new TaskId(0, 0),
      topology: topology[TOPOLOGY_DEF](),
      subtopologies: [0],
      config: resolveStreamsConfig({ applicationId: 'app' }),
      clock: new ManualClock(0),
      collector: { send: () => {}, partitionsFor: () => 1 },
      stateDir: undefined,
      globalStores: new Map()
    })
    task.initializeStores()
    task.initializeTopology()
    task.addRecords('in', 0, [raw('in', 0, 0, 1, 'x')])
    expect(task.commitRequested).to.equal(false)
    task.process()
    expect(task.commitRequested).to.equal(true)
    task.postCommit()
    expect(task.commitRequested).to.equal(false)
    task.close()
  })
})
