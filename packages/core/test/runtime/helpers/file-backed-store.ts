/**
 * A persistent KeyValueBytesStore for the state-manager tests: SimpleBytesStore's map, loaded at
 * init from `<task dir>/<name>.json` and written back at flush and close, so what a task leaves in
 * its directory is there for the next one, until the directory is wiped. Each flush is logged
 * with the task's `.checkpoint` as it was at that moment (what the flush came before).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StateStore, StateStoreContext } from '../../../src/state/state-store.js'
import { SimpleBytesStore } from '../../state/helpers/simple-bytes-store.js'

export class FileBackedBytesStore extends SimpleBytesStore {
  override readonly persistent: boolean = true
  /** The `.checkpoint` content at each flush ('' when there was none). */
  readonly flushes: string[] = []
  #dir: string | undefined

  override init(context: StateStoreContext, root: StateStore): void {
    this.#dir = context.stateDir
    const file = this.#file()
    if (existsSync(file)) {
      for (const [key, value] of JSON.parse(readFileSync(file, 'utf8')) as Array<[string, string]>)
        this.entries.set(Buffer.from(key).toString('hex'), Buffer.from(value))
    }
    super.init(context, root)
  }

  override flush(): void {
    const checkpoint = join(this.#dir!, '.checkpoint')
    this.flushes.push(existsSync(checkpoint) ? readFileSync(checkpoint, 'utf8') : '')
    this.#write()
  }

  override close(): void {
    if (this.isOpen()) this.#write()
    super.close()
  }

  #write(): void {
    const rows = [...this.entries].map(([hex, value]) => [Buffer.from(hex, 'hex').toString(), value.toString()])
    writeFileSync(this.#file(), JSON.stringify(rows))
  }

  #file(): string {
    return join(this.#dir!, `${this.name}.json`)
  }

  /** Writes a store file as a previous owner of the task would have left it. */
  static leave(taskDir: string, name: string, rows: Record<string, string>): void {
    writeFileSync(join(taskDir, `${name}.json`), JSON.stringify(Object.entries(rows)))
  }
}
