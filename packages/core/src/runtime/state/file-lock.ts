/**
 * An exclusive OS lock on a file, as Kafka Streams' `FileChannel.tryLock` on the state
 * directory's `.lock`: on Linux an open-file-description lock (fcntl F_OFD_SETLK), on macOS
 * flock, through the prebuilt addon of fs-native-extensions. The kernel lets go of it when its
 * descriptor closes or its process dies, however it dies, so a lock never outlives its holder
 * (no PID to check, none to be fooled by reuse), and two descriptors never hold it at once: two
 * processes, or two instances in one process. The lock file itself is never deleted (deleting it
 * would let a new file beside it be locked while a racer still holds the old one). @internal
 */
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { StreamsError } from '../../errors.js'

/** What kstreams uses of fs-native-extensions (a CommonJS package without types). */
interface NativeLocks {
  tryLock(fd: number): boolean
  unlock(fd: number): void
}

let native: NativeLocks | undefined

function nativeLocks(path: string): NativeLocks {
  if (native !== undefined) return native
  try {
    native = createRequire(import.meta.url)('fs-native-extensions') as NativeLocks
  } catch (err) {
    throw new StreamsError(
      'STATE_DIR_LOCKED',
      `Cannot lock ${path}: the file-lock addon (fs-native-extensions) has no build for ${process.platform}-${process.arch} or failed to load`,
      { cause: err }
    )
  }
  return native
}

export class FileLock {
  readonly path: string
  #handle: FileHandle | undefined

  private constructor(path: string, handle: FileHandle) {
    this.path = path
    this.#handle = handle
  }

  /**
   * Takes the lock on `path` (created with mode 0600 when missing) and writes `note` into the file
   * (who holds it, for people and error messages only); undefined when another descriptor holds it.
   */
  static async tryAcquire(path: string, note: string): Promise<FileLock | undefined> {
    const locks = nativeLocks(path)
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600)
    try {
      if (!locks.tryLock(handle.fd)) {
        await handle.close()
        return undefined
      }
      await handle.truncate(0)
      await handle.write(note, 0)
    } catch (err) {
      await handle.close().catch(() => {})
      throw err
    }
    return new FileLock(path, handle)
  }

  /** Lets go of the lock (closing the descriptor would too); idempotent. */
  async release(): Promise<void> {
    const handle = this.#handle
    if (handle === undefined) return
    this.#handle = undefined
    try {
      nativeLocks(this.path).unlock(handle.fd)
    } finally {
      await handle.close()
    }
  }
}
