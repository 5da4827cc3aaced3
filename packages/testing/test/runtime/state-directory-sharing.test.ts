/**
 * The state directory of a running instance: a second instance on the same directory can
 * neither start nor cleanUp() it away, and the state cleaner deletes the directories of the tasks
 * that moved to another instance once stateCleanupDelayMs has passed, keeping those it has.
 */
import { expect } from 'chai'
import { readdirSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness } from './streams-harness.js'

const taskDirs = (dir: string): string[] =>
  readdirSync(dir)
    .filter(n => /^\d+_\d+$/.test(n))
    .sort()

describe('KafkaStreams on the in-memory Kafka: the state directory', function () {
  this.timeout(20_000)
  let h: Harness
  let shared: string

  beforeEach(async () => {
    h = new Harness({ partitions: 4 })
    shared = await mkdtemp(join(tmpdir(), 'kstreams-shared-state-'))
  })
  afterEach(async () => {
    await h.cleanup()
    await rm(shared, { recursive: true, force: true })
  })

  it('a second instance on the directory of a running one can neither start nor clean it up', async () => {
    const running = await h.start({ config: { stateDir: shared } })
    h.produce(40)
    await h.settle()
    const appDir = join(shared, h.applicationId)
    const before = await readdir(appDir)
    expect(taskDirs(appDir)).to.have.length(4)

    const second = await h.create({ config: { stateDir: shared } })
    const cleaned = await second.streams.cleanUp().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(cleaned).to.have.property('code', 'STATE_DIR_LOCKED')
    expect((await readdir(appDir)).sort()).to.deep.equal(before.sort())
    const started = await second.streams.start().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(started).to.have.property('code', 'STATE_DIR_LOCKED')
    expect(running.streams.state()).to.equal('RUNNING')

    await running.streams.close()
    const third = await h.create({ config: { stateDir: shared } })
    await third.streams.cleanUp()
    expect(await readdir(appDir)).to.deep.equal(['.lock'])
  })

  it('the state cleaner deletes the directories of tasks that moved away after stateCleanupDelayMs', async () => {
    const config = { stateDir: shared, stateCleanupDelayMs: 300 }
    const first = await h.start({ config })
    h.produce(40)
    await h.settle()
    const appDir = join(shared, h.applicationId)
    expect(taskDirs(appDir)).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
    await h.start() // takes two of the four tasks
    await h.settle()
    const kept = first.streams
      .metadataForLocalThreads()
      .flatMap(t => t.activeTasks.map(a => a.taskId.toString()))
      .sort()
    expect(kept).to.have.length(2)
    await eventually(() => taskDirs(appDir).length === 2, 5000)
    expect(taskDirs(appDir)).to.deep.equal(kept)
    await h.verify()
  })
})
