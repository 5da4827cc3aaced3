/**
 * The application reset's choice of internal topics when application ids share a prefix: the
 * reset of `foo` infers `foo-bar-Counts-changelog` (Kafka's prefix rule), which is also a topic
 * of application `foo-bar`. With evidence of `foo-bar` (its consumer group, or a name Kafka
 * Streams generates after `foo-bar-`) the topic is left and named (exit 1) unless
 * --internal-topics names it; while `foo-bar` has members the reset is refused before anything
 * changes, whatever the options. On an admin over plain maps: the reset's decisions, not Kafka's
 * requests, are under test here (tests/integration/test/kstreams-cli.test.ts runs it on a broker).
 */
import type { AdminPort, GroupDescription, TopicPartitionOffset } from '@kstreams/core'
import { expect } from 'chai'
import { CliError } from '../../src/cli-error.js'
import { ApplicationReset, type ResetRequest, toolAdmin } from '../../src/reset/application-reset.js'

const MEMBER = { memberId: 'm-1', groupInstanceId: undefined, clientId: 'foo-bar-StreamThread-1', clientHost: '/127.0.0.1' }

/** A cluster of topics (one partition each, 5 records) and consumer groups, and what the reset did to it. */
class Cluster {
  readonly topics: Set<string>
  readonly groups = new Map<string, GroupDescription>()
  readonly described: string[] = []
  readonly committed: Array<{ groupId: string; offsets: readonly TopicPartitionOffset[] }> = []

  constructor(topics: readonly string[]) {
    this.topics = new Set(topics)
  }

  group(groupId: string, members: 'active' | 'empty'): this {
    const active = members === 'active'
    this.groups.set(groupId, {
      groupId,
      state: active ? 'Stable' : 'Empty',
      protocolType: 'consumer',
      protocol: active ? 'stream' : '',
      members: active ? [MEMBER] : []
    })
    return this
  }

  admin(): AdminPort {
    const partitions = (tps: ReadonlyArray<{ topic: string; partition: number }>, offset: number): Map<string, number> =>
      new Map(tps.map(tp => [`${tp.topic}-${tp.partition}`, offset]))
    return {
      partitionCounts: async topics => new Map(topics.filter(t => this.topics.has(t)).map(t => [t, 1])),
      createTopics: async () => {},
      endOffsets: async tps => partitions(tps, 5),
      beginningOffsets: async tps => partitions(tps, 0),
      committedOffsets: async () => new Map(),
      deleteRecords: async () => {},
      listTopics: async () => [...this.topics],
      offsetsForTimes: async () => new Map(),
      deleteTopics: async topics => {
        for (const topic of topics) this.topics.delete(topic)
      },
      describeGroup: async groupId => {
        this.described.push(groupId)
        return this.groups.get(groupId) ?? { groupId, state: 'Dead', protocolType: '', protocol: '', members: [] }
      },
      alterConsumerGroupOffsets: async (groupId, offsets) => {
        this.committed.push({ groupId, offsets })
      },
      removeMembersFromConsumerGroup: async () => {},
      close: async () => {}
    }
  }
}

async function reset(
  cluster: Cluster,
  request: Partial<ResetRequest> & { applicationId: string }
): Promise<{ code: number | CliError; lines: string[] }> {
  const lines: string[] = []
  const out = { line: (text: string) => lines.push(text), write: (text: string) => lines.push(text) }
  const run = new ApplicationReset({ admin: toolAdmin(cluster.admin(), 'maps'), out })
  try {
    const code = await run.run({
      inputTopics: [],
      intermediateTopics: [],
      internalTopics: [],
      position: { kind: 'earliest' },
      dryRun: false,
      force: false,
      stateDir: undefined,
      deleteWaitMs: 0,
      ...request
    })
    return { code, lines }
  } catch (error) {
    if (error instanceof CliError) return { code: error, lines }
    throw error
  }
}

describe('ApplicationReset: application ids that share a prefix', () => {
  const FOO = ['words', 'foo-Counts-changelog', 'foo-Counts-repartition']
  const FOO_BAR = ['foo-bar-Counts-changelog', 'foo-bar-Counts-repartition']

  it('leaves the topics of application foo-bar, whose group exists, when resetting foo, names them and why, and exits 1 after the rest', async () => {
    const cluster = new Cluster([...FOO, ...FOO_BAR]).group('foo-bar', 'empty')
    const { code, lines } = await reset(cluster, { applicationId: 'foo', inputTopics: ['words'] })
    expect(code).to.equal(1)
    expect([...cluster.topics].sort()).to.deep.equal(['foo-bar-Counts-changelog', 'foo-bar-Counts-repartition', 'words'])
    expect(cluster.committed).to.deep.equal([{ groupId: 'foo', offsets: [{ topic: 'words', partition: 0, offset: 0 }] }])
    expect(lines).to.include('Internal topics to delete (inferred): foo-Counts-changelog, foo-Counts-repartition')
    expect(lines).to.include(
      "These are also named like internal topics of another application and are left (name them in --internal-topics to delete them as foo's):"
    )
    expect(lines).to.include('Topic: foo-bar-Counts-changelog (application foo-bar: its consumer group exists (Empty))')
    expect(lines).to.include('Topic: foo-bar-Counts-repartition (application foo-bar: its consumer group exists (Empty))')
    // Application foo-bar's own reset is not held back by the shorter id foo.
    const again = await reset(cluster.group('foo', 'empty'), { applicationId: 'foo-bar' })
    expect(again.code).to.equal(0)
    expect([...cluster.topics]).to.deep.equal(['words'])
  })

  it('refuses, before anything changes, while the group of foo-bar has members: by default, in a dry run, and when --internal-topics names its topics', async () => {
    const cluster = new Cluster([...FOO, ...FOO_BAR]).group('foo-bar', 'active')
    const ownTopics = 'foo-Counts-changelog,foo-Counts-repartition'
    for (const [request, own] of [
      [{}, ownTopics],
      [{ dryRun: true }, ownTopics],
      [{ internalTopics: ['foo-Counts-changelog', 'foo-bar-Counts-changelog'] }, 'foo-Counts-changelog']
    ] as const) {
      const { code, lines } = await reset(cluster, { applicationId: 'foo', inputTopics: ['words'], ...request })
      expect(code, JSON.stringify(request)).to.be.instanceOf(CliError)
      const error = code as CliError
      expect({ code: error.code, exitCode: error.exitCode }).to.deep.equal({ code: 'ILLEGAL_STATE', exitCode: 1 })
      expect(error.message).to.include('are also named like internal topics of application foo-bar: foo-bar-Counts-changelog')
      expect(error.message).to.include("Consumer group 'foo-bar' is still active and has following members: [(memberId=m-1,")
      expect(error.message).to.include(`or give --internal-topics ${own} to delete only those.`)
      expect(lines).to.deep.equal([])
    }
    expect(cluster.topics.size).to.equal(FOO.length + FOO_BAR.length)
    expect(cluster.committed).to.deep.equal([])
    // Naming only foo's own internal topics resets foo while foo-bar runs.
    const own = await reset(cluster, {
      applicationId: 'foo',
      inputTopics: ['words'],
      internalTopics: ['foo-Counts-changelog', 'foo-Counts-repartition']
    })
    expect(own.code).to.equal(0)
    expect([...cluster.topics].sort()).to.deep.equal([...FOO_BAR, 'words'])
    // Any longer id with members refuses, not only the first one with a group.
    const nested = new Cluster(['foo-bar-baz-Counts-changelog']).group('foo-bar', 'empty').group('foo-bar-baz', 'active')
    const refused = await reset(nested, { applicationId: 'foo', internalTopics: ['foo-bar-baz-Counts-changelog'] })
    expect((refused.code as CliError).message).to.include("Consumer group 'foo-bar-baz' is still active")
    expect((refused.code as CliError).message).to.match(/resetting foo\.$/)
    expect([...nested.topics]).to.deep.equal(['foo-bar-baz-Counts-changelog'])
  })

  it("deletes a topic named like foo-bar's too when --internal-topics names it, and says so (exit 0)", async () => {
    const cluster = new Cluster([...FOO, ...FOO_BAR]).group('foo-bar', 'empty')
    const { code, lines } = await reset(cluster, {
      applicationId: 'foo',
      internalTopics: ['foo-Counts-changelog', 'foo-bar-Counts-changelog']
    })
    expect(code).to.equal(0)
    expect([...cluster.topics].sort()).to.deep.equal(['foo-Counts-repartition', 'foo-bar-Counts-repartition', 'words'])
    expect(lines).to.include('Internal topics to delete (given): foo-Counts-changelog, foo-bar-Counts-changelog')
    expect(lines).to.include(
      'These are deleted as --internal-topics names them, though also named like internal topics of another application:'
    )
    expect(lines).to.include('Topic: foo-bar-Counts-changelog (application foo-bar: its consumer group exists (Empty))')
  })

  it('deletes a store topic with the prefix twice (foo-foo-Counts-changelog) unless application foo-foo has a group', async () => {
    const cluster = new Cluster(['foo-foo-Counts-changelog'])
    expect((await reset(cluster, { applicationId: 'foo' })).code).to.equal(0)
    expect([...cluster.topics]).to.deep.equal([])
    const taken = new Cluster(['foo-foo-Counts-changelog']).group('foo-foo', 'empty')
    const { code, lines } = await reset(taken, { applicationId: 'foo' })
    expect(code).to.equal(1)
    expect([...taken.topics]).to.deep.equal(['foo-foo-Counts-changelog'])
    expect(lines).to.include('Topic: foo-foo-Counts-changelog (application foo-foo: its consumer group exists (Empty))')
  })

  it('without a group: a name Kafka Streams generates after foo-bar- is evidence of foo-bar, a store name of its own is not', async () => {
    const generatedFoo = 'foo-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog'
    const generatedFooBar = 'foo-bar-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog'
    const cluster = new Cluster([generatedFoo, generatedFooBar, 'foo-bar-Counts-changelog'])
    const { code, lines } = await reset(cluster, { applicationId: 'foo' })
    expect(code).to.equal(1)
    expect([...cluster.topics]).to.deep.equal([generatedFooBar])
    expect(lines).to.include(`Topic: ${generatedFooBar} (application foo-bar: its name after foo-bar- is one Kafka Streams generates)`)
    // Each longer id is looked up once; a generated name after foo- is foo's without a look-up.
    expect(cluster.described).to.deep.equal(['foo', 'foo-bar'])
  })
})
