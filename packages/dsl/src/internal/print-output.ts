/**
 * Where `KStream.print` writes (Kafka Streams' PrintForeachAction's writer): standard output, or a
 * file opened when `Printed.toFile` is called. Owns the file descriptor: the print processors of
 * every task share it, the last one to close closes it, and a processor created after that (a
 * task revived by a rebalance) reopens the file for appending. Writes are synchronous, so every
 * line is on its way to the file or stdout when `process()` returns. @internal
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { TopologyError } from '@kstreams/core'

/** A line sink shared by the processors of one `Printed`. @internal */
export interface PrintOutput {
  /** A processor starts writing (its init). */
  open(): void
  /** Writes `text` (one or more whole lines). */
  write(text: string): void
  /** A processor stops writing (its close). */
  close(): void
}

/** Standard output, looked up at each write (so a replaced `process.stdout.write` is used); never closed. @internal */
export const stdoutOutput: PrintOutput = {
  open() {},
  write(text) {
    process.stdout.write(text)
  },
  close() {}
}

/** A UTF-8 file, created or truncated now (as Kafka's `Files.newOutputStream`). @internal */
export class FileOutput implements PrintOutput {
  readonly #path: string
  #fd: number | undefined
  #users = 0

  constructor(path: string) {
    if (path.trim() === '') throw new TopologyError('TOPOLOGY_INVALID', "filePath can't be an empty string")
    this.#path = path
    this.#fd = FileOutput.#openFile(path, 'w')
  }

  open(): void {
    this.#fd ??= FileOutput.#openFile(this.#path, 'a')
    this.#users++
  }

  write(text: string): void {
    if (this.#fd !== undefined) writeSync(this.#fd, text, null, 'utf8')
  }

  close(): void {
    if (this.#users > 0) this.#users--
    if (this.#users === 0 && this.#fd !== undefined) {
      closeSync(this.#fd)
      this.#fd = undefined
    }
  }

  static #openFile(path: string, flags: 'w' | 'a'): number {
    try {
      return openSync(path, flags)
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause)
      throw new TopologyError('TOPOLOGY_INVALID', `Unable to write stream to file at [${path}] ${reason}`, { cause })
    }
  }
}
