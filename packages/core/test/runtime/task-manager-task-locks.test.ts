/**
 * Two stream threads of one instance and one task: the thread a rebalance gives the task to waits
 * until the thread that had it has closed it (the per-task directory lock), so the task's stores
 * are never open twice; a thread that lost its tasks wipes their state before it lets go.
 */
import { expect } from 'chai'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StateDirectory } from '../../src/runtime/state/state-directory.js'
import { TaskId } from '../../src/task-id.js'
import { SimpleBytesStore } from '../state/helpers/simple-bytes-store.js'
import { CHANGELOG, FakeLog, setup } from './helpers/task-manager-harness.js'

const T0 = new Map([['0_0', [{ topic: 'in', partition: 0 }]]])
const persistent = (): SimpleBytesStore => Object.defineProperty(new SimpleBytesStore('counts'), 'persistent', { value: true })

describe('TaskManager: the task directory lock between two threads of one instance', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-task-locks-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('a thread given a task another thread still has waits until that one has closed it', async () => {
    const log = new FakeLog()
    const stateDirectory = new StateDirectory(dir, 'app')
    const a = setup(dir, () => new SimpleBytesStore('counts'), { log, stateDirectory })
    const b = setup(dir, () => new SimpleBytesStore('counts'), { log, stateDirectory })
    await a.assign(T0)
    let assigned = false
    const assigning = b.assign(T0).then(() => {
      assigned = true
    })
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(assigned, 'the second thread opened the task while the first had it').to.equal(false)
    expect(b.built).to.have.length(0)
    await a.assign(new Map())
    await assigning
    expect(a.built[0]!.isOpen()).to.equal(false)
    expect(b.built).to.have.length(1)
    expect(b.tm.storesOf('0_0')).to.not.equal(undefined)
    await b.tm.shutdown(true)
    await a.tm.shutdown(true)
  })

  it('a thread that waits longer than taskTimeoutMs fails with a retriable STATE_DIR_LOCKED', async () => {
    const stateDirectory = new StateDirectory(dir, 'app')
    const a = setup(dir, () => new SimpleBytesStore('counts'), { stateDirectory })
    const b = setup(dir, () => new SimpleBytesStore('counts'), { stateDirectory, taskTimeoutMs: 50 })
    await a.assign(T0)
    const err = await b.assign(T0).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(err).to.have.property('code', 'STATE_DIR_LOCKED')
    expect(err).to.have.property('retriable', true)
    await a.tm.shutdown(true)
    expect(stateDirectory.tryLockTask(new TaskId(0, 0), {})).to.equal(true) // shutdown let go of every task
  })

  it('a thread that lost its tasks wipes their persistent state before the next thread gets them', async () => {
    const log = new FakeLog()
    const stateDirectory = new StateDirectory(dir, 'app')
    const a = setup(dir, persistent, { log, stateDirectory })
    const b = setup(dir, persistent, { log, stateDirectory })
    for (const [k, v] of [
      ['a', '1'],
      ['b', '1']
    ] as const)
      log.append(CHANGELOG, 0, k, v)
    await a.assign(T0)
    for (let i = 0; i < 3 && a.tm.hasRestoringTasks; i++) await a.tm.restoreStep(0)
    await a.tm.commit(true)
    expect(await readdir(stateDirectory.taskDir(new TaskId(0, 0)))).to.include('.checkpoint')
    const assigning = b.assign(T0)
    await a.tm.handleLostAll()
    await assigning
    for (let i = 0; i < 3 && b.tm.hasRestoringTasks; i++) await b.tm.restoreStep(0)
    // No checkpoint of the lost task was left for the new owner: it restored the whole changelog.
    expect(b.events).to.deep.equal(['start counts 0 2', 'end counts 2'])
    await b.tm.shutdown(true)
  })
})
