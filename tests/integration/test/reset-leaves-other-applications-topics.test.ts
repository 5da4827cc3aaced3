/**
 * `kstreams reset` (the built bin) on the broker when two applications' ids share a prefix:
 * `<id>` and `<id>-bar` both count into a store `Counts`, so `<id>-bar-Counts-changelog` is
 * named like an internal topic of `<id>` too (Kafka's prefix rule). While `<id>-bar` runs, the
 * reset of `<id>` is refused naming it, and changes nothing; once `<id>-bar` is stopped (its
 * group Empty, with its offsets), the reset of `<id>` deletes `<id>`'s changelog, leaves
 * `<id>-bar`'s and says why (exit 1); `--internal-topics` naming it deletes it.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import {
  bootstrapServers,
  createTopics,
  produce,
  recordCount,
  tempDir,
  testClient,
  testClientName,
  unique,
  waitFor,
  withAdmin
} from './helpers.js'
import { kstreams } from './kstreams-cli.js'

const S = Serdes.String()
const L = Serdes.Long()

describe('kstreams reset leaves the topics of an application whose id extends the one reset', function () {
  this.timeout(300_000)
  const id = unique('reset-prefix')
  const other = `${id}-bar`
  const input = `${id}-words`
  const ownChangelog = `${id}-Counts-changelog`
  const otherChangelog = `${other}-Counts-changelog`
  const resetArgs = ['reset', '--application-id', id, '--bootstrap-server', bootstrapServers(), '--client', testClientName()]
  const running: KafkaStreams[] = []
  let state: { path: string; remove: () => Promise<void> }

  const start = async (applicationId: string): Promise<KafkaStreams> => {
    const builder = new StreamsBuilder()
    builder
      .stream(input, Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .count(Materialized.as<string, number>('Counts').withKeySerde(S).withValueSerde(L))
    const streams = new KafkaStreams(
      builder.build(),
      { applicationId, bootstrapServers: bootstrapServers(), stateDir: state.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    running.push(streams)
    await streams.start()
    await waitFor(`${applicationId} RUNNING`, () => streams.state() === 'RUNNING', 90_000)
    return streams
  }
  const stop = async (streams: KafkaStreams): Promise<void> => {
    await streams.close({ leaveGroup: true })
    running.splice(running.indexOf(streams), 1)
  }
  const topics = async (): Promise<string[]> => await withAdmin(async admin => await admin.listTopics())

  before(async () => {
    state = await tempDir('kstreams-reset-prefix')
    await createTopics([{ topic: input, numPartitions: 1 }])
  })
  after(async () => {
    for (const streams of [...running]) await stop(streams).catch(() => undefined)
    await state?.remove()
  })

  it('both applications count into their changelogs; the reset of the one is refused while the other runs, naming it', async () => {
    const app = await start(id)
    const otherApp = await start(other)
    await produce(input, [
      { key: 'a', value: 'x' },
      { key: 'b', value: 'y' }
    ])
    await waitFor(
      'both changelogs written',
      async () => (await recordCount(ownChangelog)) >= 2 && (await recordCount(otherChangelog)) >= 2,
      90_000
    )
    await stop(app)
    expect(otherApp.state()).to.equal('RUNNING')

    const refused = await kstreams([...resetArgs, '--input-topics', input])
    expect(refused.code, refused.stdout + refused.stderr).to.equal(1)
    expect(refused.stderr).to.include(
      `ERROR [ILLEGAL_STATE]: Internal topics of application ${id} are also named like internal topics of application ${other}: ${otherChangelog}.`
    )
    expect(refused.stderr).to.include(`Consumer group '${other}' is still active and has following members: [(memberId=`)
    expect(refused.stderr).to.include(`or give --internal-topics ${ownChangelog} to delete only those.`)
    expect(refused.stdout).to.equal('')
    expect(await topics()).to.include.members([ownChangelog, otherChangelog])
  })

  it("once the other is stopped, the reset deletes its own changelog and leaves the other's, saying why (exit 1)", async () => {
    await stop(running[0]!)
    const run = await kstreams([...resetArgs, '--input-topics', input])
    expect(run.code, run.stdout + run.stderr).to.equal(1)
    expect(run.stdout).to.include(`Internal topics to delete (inferred): ${ownChangelog}\n`)
    expect(run.stdout).to.include(
      `These are also named like internal topics of another application and are left (name them in --internal-topics to delete them as ${id}'s):\n` +
        `Topic: ${otherChangelog} (application ${other}: its consumer group exists (Empty))\n`
    )
    const left = await topics()
    expect(left).to.include(otherChangelog)
    expect(left).not.to.include(ownChangelog)
    expect(await recordCount(otherChangelog)).to.be.at.least(2)
  })

  it("--internal-topics naming the other application's topic deletes it (exit 0)", async () => {
    const run = await kstreams([...resetArgs, '--internal-topics', otherChangelog])
    expect(run.code, run.stdout + run.stderr).to.equal(0)
    expect(run.stdout).to.include(`Topic: ${otherChangelog} (application ${other}: its consumer group exists (Empty))`)
    expect(await topics()).not.to.include(otherChangelog)
  })
})
