/**
 * The `.checkpoint` file of a task (Kafka Streams' OffsetCheckpoint, format version 0): UTF-8
 * lines "0", the entry count, then "<topic> <partition> <offset>". Written to a temp file,
 * fsynced, renamed over the file and the directory fsynced (Kafka's atomicMoveWithFallback), so
 * a crash leaves either the old or the new file; an empty map deletes the file. Read as Kafka
 * reads it: numbers by Java's Integer.parseInt / Long.parseLong rules (decimal digits with an
 * optional sign, nothing else). A file that cannot be parsed is a CheckpointCorruptedError: the
 * caller restores from the beginning of the changelog instead.
 */
import { open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { StreamsError } from '../../errors.js'
import { tpKey, type TopicPartitionOffset } from '../kafka/ports.js'

const VERSION = 0
/** A logged store whose offset is not known yet (Kafka's OFFSET_UNKNOWN). */
export const OFFSET_UNKNOWN = -4

export class CheckpointCorruptedError extends StreamsError {
  readonly path: string
  constructor(path: string, reason: string) {
    super('CHECKPOINT_CORRUPTED', `Checkpoint file ${path} is corrupted: ${reason}`)
    this.path = path
  }
}

/** The last pending write per path: writes to one file run one after the other, in call order. */
const pendingWrites = new Map<string, Promise<void>>()
let tmpSequence = 0

/** Java's Integer.parseInt / Long.parseLong (ASCII digits): the value, or undefined when Java would throw. */
function parseJavaInteger(text: string, bits: 32 | 64): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined
  const value = BigInt(text)
  const max = (1n << BigInt(bits - 1)) - 1n
  return value >= -max - 1n && value <= max ? value : undefined
}

/** Java's `\s`, by which Kafka splits an entry line. */
const JAVA_WHITESPACE = /[ \t\n\v\f\r]+/

export class OffsetCheckpoint {
  readonly path: string

  constructor(path: string) {
    this.path = path
  }

  /**
   * Writes the offsets atomically; an empty list deletes the file. Concurrent writes of the same
   * file (a commit while a restore checkpoints) are serialized, the last call winning.
   */
  write(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    const previous = pendingWrites.get(this.path) ?? Promise.resolve()
    const next = previous.catch(() => {}).then(() => this.#write(offsets))
    pendingWrites.set(this.path, next)
    const forget = (): void => {
      if (pendingWrites.get(this.path) === next) pendingWrites.delete(this.path)
    }
    next.then(forget, forget)
    return next
  }

  async #write(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (offsets.length === 0) {
      await this.delete()
      return
    }
    const lines = [String(VERSION), String(offsets.length)]
    const seen = new Set<string>()
    for (const { topic, partition, offset } of offsets) {
      if (!Number.isSafeInteger(offset) || (offset < 0 && offset !== OFFSET_UNKNOWN)) {
        throw new StreamsError('ILLEGAL_ARGUMENT', `Invalid offset ${offset} for ${topic}-${partition} in checkpoint ${this.path}`)
      }
      if (/\s/.test(topic) || topic === '') throw new StreamsError('ILLEGAL_ARGUMENT', `Topic name cannot be checkpointed: "${topic}"`)
      if (!Number.isInteger(partition) || partition < 0 || partition > 0x7fffffff || seen.has(tpKey(topic, partition))) {
        throw new StreamsError('ILLEGAL_ARGUMENT', `Invalid or repeated partition ${topic}-${partition} in checkpoint ${this.path}`)
      }
      seen.add(tpKey(topic, partition))
      lines.push(`${topic} ${partition} ${offset}`)
    }
    const tmp = `${this.path}.${process.pid}.${tmpSequence++}.tmp`
    try {
      const handle = await open(tmp, 'w', 0o600)
      try {
        await handle.writeFile(lines.join('\n') + '\n', 'utf8')
        await handle.sync()
      } finally {
        await handle.close()
      }
      await rename(tmp, this.path)
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => {})
      throw err
    }
    await syncDirectory(dirname(this.path))
  }

  /**
   * Reads the offsets as Kafka does; a missing file gives an empty map. Negative offsets other
   * than OFFSET_UNKNOWN are skipped (and not counted); anything else that is not a well-formed
   * entry, a count that does not match the entries, or an offset beyond 2^53 is a
   * CheckpointCorruptedError.
   */
  async read(): Promise<Map<string, TopicPartitionOffset>> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map()
      throw err
    }
    // Lines as Java's BufferedReader.readLine() gives them.
    const lines = text.split(/\r\n|\r|\n/)
    if (lines.at(-1) === '') lines.pop()
    if (lines.length < 2) throw new CheckpointCorruptedError(this.path, 'missing header lines')
    const version = parseJavaInteger(lines[0]!, 32)
    if (version === undefined) throw new CheckpointCorruptedError(this.path, `malformed version "${lines[0]}"`)
    if (version !== BigInt(VERSION)) throw new CheckpointCorruptedError(this.path, `unknown version "${lines[0]}"`)
    const count = parseJavaInteger(lines[1]!, 32)
    if (count === undefined) throw new CheckpointCorruptedError(this.path, `invalid entry count "${lines[1]}"`)
    let expected = Number(count)
    const offsets = new Map<string, TopicPartitionOffset>()
    for (const line of lines.slice(2)) {
      // Java's String.split drops trailing empty strings.
      const pieces = line.split(JAVA_WHITESPACE)
      while (pieces.at(-1) === '') pieces.pop()
      const partition = pieces.length === 3 ? parseJavaInteger(pieces[1]!, 32) : undefined
      const offset = pieces.length === 3 ? parseJavaInteger(pieces[2]!, 64) : undefined
      if (partition === undefined || offset === undefined) throw new CheckpointCorruptedError(this.path, `malformed entry "${line}"`)
      if (offset < 0n && offset !== BigInt(OFFSET_UNKNOWN)) {
        expected--
        continue
      }
      if (offset > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new CheckpointCorruptedError(this.path, `offset ${offset} of "${line}" is beyond 2^53`)
      }
      const topic = pieces[0]!
      offsets.set(tpKey(topic, Number(partition)), { topic, partition: Number(partition), offset: Number(offset) })
    }
    if (offsets.size !== expected) throw new CheckpointCorruptedError(this.path, `expected ${expected} entries but found ${offsets.size}`)
    return offsets
  }

  async delete(): Promise<void> {
    await rm(this.path, { force: true })
  }

  /**
   * Whether `name`, a file beside the checkpoint, is a temporary file a write of it leaves when
   * the process dies before the rename: `.checkpoint.<pid>.<n>.tmp` (and Java's `.checkpoint.tmp`).
   */
  isTemporaryFile(name: string): boolean {
    return name.startsWith(`${basename(this.path)}.`) && name.endsWith('.tmp')
  }

  /**
   * Deletes the temporary files writes of this checkpoint left behind (call only when nothing
   * writes it: a process that died mid-write); returns their names.
   */
  async removeTemporaryFiles(): Promise<string[]> {
    const dir = dirname(this.path)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    const stale = names.filter(name => this.isTemporaryFile(name))
    for (const name of stale) await rm(join(dir, name), { force: true })
    return stale
  }
}

/**
 * fsyncs a directory, so that a rename in it survives a crash of the machine (Kafka's
 * Utils.flushDir). Windows cannot open a directory for that; Kafka skips it there too.
 */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
