import { expect } from 'chai'
import { mkdtemp, rm, stat, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'
import { TaskId } from '../../../src/task-id.js'

describe('StateDirectory', () => {
  let root: string
  beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'kstreams-sd-')) })
  afterEach(async () => { await rm(root, { recursive: true, force: true }) })

  it('creates the app and task directories with mode 0700', async () => {
    const sd = new StateDirectory(root, 'app')
    await sd.lock()
    await sd.ensureDir(sd.taskDir(new TaskId(1, 2)))
    expect((await stat(sd.appDir)).mode & 0o777).to.equal(0o700)
    expect((await stat(join(root, 'app', '1_2'))).mode & 0o777).to.equal(0o700)
    expect((await sd.listTaskDirs()).map(t => t.toString())).to.deep.equal(['1_2'])
    await sd.unlock()
  })

  it('keeps the process id across restarts', async () => {
    const first = await new StateDirectory(root, 'app').processId()
    expect(first).to.match(/^[0-9a-f-]{36}$/)
    expect(await new StateDirectory(root, 'app').processId()).to.equal(first)
  })

  it('a live process holding the lock keeps a second instance out; a stale lock is taken over', async () => {
    const a = new StateDirectory(root, 'app')
    await mkdir(a.appDir, { recursive: true })
    await writeFile(join(a.appDir, '.lock'), String(process.ppid)) // a live process that is not us
    let err: any
    try { await a.lock() } catch (e) { err = e }
    expect(err).to.have.property('code', 'STATE_DIR_LOCKED')
    await writeFile(join(a.appDir, '.lock'), '999999999') // no such process
    await a.lock()
    await a.unlock()
  })

  it('rejects an application id that is not a plain directory name', () => {
    for (const id of ['..', 'a/b', '']) {
      expect(() => new StateDirectory(root, id)).to.throw().with.property('code', 'ILLEGAL_ARGUMENT')
    }
  })

  it('cleanUp removes task directories', async () => {
    const sd = new StateDirectory(root, 'app')
    await sd.ensureDir(sd.taskDir(new TaskId(0, 0)))
    await sd.cleanUp()
    expect(await sd.listTaskDirs()).to.deep.equal([])
  })
})
