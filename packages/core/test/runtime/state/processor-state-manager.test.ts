/**
 * The task's checkpoint as Kafka's ProcessorStateManager keeps it: every logged persistent store
 * is in it, OFFSET_UNKNOWN (-4) while it has no changelog offset; such an entry loads as "restore
 * from the beginning", never as corruption. Under exactly-once a store with local state and no
 * entry is corrupted, and the checkpoint is deleted once loaded.
 */
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../../src/logger.js'
import { ProcessorStateManager } from '../../../src/runtime/state/processor-state-manager.js'
import type { StateStore } from '../../../src/state/state-store.js'
import { TaskId } from '../../../src/task-id.js'

function store(name: string, persistent: boolean): StateStore {
  return { name, persistent, init() {}, flush() {}, close() {}, isOpen: () => true }
}

const changelog = (name: string) => ({ topic: `app-${name}-changelog`, partition: 0 })

describe('ProcessorStateManager: the checkpoint of a task', () => {
  let taskDir: string
  beforeEach(async () => {
    taskDir = await mkdtemp(join(tmpdir(), 'kstreams-psm-'))
  })
  afterEach(async () => {
    await rm(taskDir, { recursive: true, force: true })
  })

  /** Stores A and B (logged, persistent), M (logged, in memory) and U (persistent, not logged). */
  function manager(): ProcessorStateManager {
    const m = new ProcessorStateManager(new TaskId(0, 0), taskDir, silentLogger)
    m.register(store('A', true), () => {}, changelog('A'))
    m.register(store('B', true), () => {}, changelog('B'))
    m.register(store('M', false), () => {}, changelog('M'))
    m.register(store('U', true), () => {}, undefined)
    return m
  }

  const startOffsets = (m: ProcessorStateManager): Record<string, number | undefined> =>
    Object.fromEntries(m.restoreRegistrations().map(r => [r.storeName, r.startOffset]))

  it('writes every logged persistent store, OFFSET_UNKNOWN for one without an offset', async () => {
    const m = manager()
    m.updateChangelogOffsets(topic => (topic === 'app-A-changelog' || topic === 'app-M-changelog' ? 41 : undefined))
    await m.maybeCheckpoint(true)
    expect(await readFile(join(taskDir, '.checkpoint'), 'utf8')).to.equal('0\n2\napp-A-changelog 0 41\napp-B-changelog 0 -4\n')
  })

  it('a task whose stores never wrote still has a checkpoint (all OFFSET_UNKNOWN)', async () => {
    await manager().maybeCheckpoint(true)
    expect(await readFile(join(taskDir, '.checkpoint'), 'utf8')).to.equal('0\n2\napp-A-changelog 0 -4\napp-B-changelog 0 -4\n')
  })

  it('under exactly-once an OFFSET_UNKNOWN entry over local state loads (B restores from the beginning); the checkpoint is deleted', async () => {
    const first = manager()
    first.updateChangelogOffsets(topic => (topic === 'app-A-changelog' ? 41 : undefined))
    await first.maybeCheckpoint(true)
    const m = manager()
    await m.loadCheckpoint({ dirWasEmpty: false })
    expect(startOffsets(m)).to.deep.equal({ A: 42, B: undefined, M: undefined })
    expect(existsSync(join(taskDir, '.checkpoint'))).to.equal(false)
  })

  it('under exactly-once a store missing from the checkpoint over local state is TASK_CORRUPTED, naming the store', async () => {
    await writeFile(join(taskDir, '.checkpoint'), '0\n1\napp-A-changelog 0 41\n')
    let err: any
    try {
      await manager().loadCheckpoint({ dirWasEmpty: false })
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'TASK_CORRUPTED')
    expect(err.message).to.contain('store B')
  })

  it('under exactly-once an empty directory needs no checkpoint; at-least-once never does', async () => {
    const eos = manager()
    await eos.loadCheckpoint({ dirWasEmpty: true })
    expect(startOffsets(eos)).to.deep.equal({ A: undefined, B: undefined, M: undefined })
    await writeFile(join(taskDir, '.checkpoint'), '0\n1\napp-A-changelog 0 41\n')
    const alos = manager()
    await alos.loadCheckpoint()
    expect(startOffsets(alos)).to.deep.equal({ A: 42, B: undefined, M: undefined })
    expect(existsSync(join(taskDir, '.checkpoint')), 'kept under at-least-once').to.equal(true)
  })
})
