import { expect } from 'chai'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'
import { TaskId } from '../../../src/task-id.js'

describe('StateDirectory.wipeTask while a closing store still writes files', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kstreams-wipe-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('deletes the task directory although files keep appearing in it for a while (a RocksDB store closing in the background)', async () => {
    const sd = new StateDirectory(root, 'app')
    const task = new TaskId(1, 4)
    const owner = {}
    const storeDir = join(await sd.lockTask(task, owner, 1000), 'rocksdb', 'Counts')
    await mkdir(storeDir, { recursive: true })
    for (let i = 0; i < 200; i++) await writeFile(join(storeDir, `${String(i).padStart(6, '0')}.sst`), 'x')
    // Like RocksDB finishing its close: new files for 150 ms, while the directory exists.
    let writing = true
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        await writeFile(join(storeDir, `new-${n}.sst`), 'x').catch(() => undefined)
        await new Promise(resolve => setImmediate(resolve))
      }
    })()
    const stop = setTimeout(() => {
      writing = false
    }, 150)
    try {
      await sd.wipeTask(task, owner)
    } finally {
      writing = false
      clearTimeout(stop)
      await writer
    }
    // The writer may have recreated nothing: files go only into a directory that exists.
    expect(
      await stat(sd.taskDir(task)).then(
        () => 'exists',
        () => 'gone'
      )
    ).to.equal('gone')
  })
})
