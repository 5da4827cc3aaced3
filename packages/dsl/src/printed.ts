/**
 * How `KStream.print` prints (Kafka Streams' `Printed`): to standard output or a file, with a
 * label (default: the name of the stream's node printed, as Kafka's), a mapper from key and value to the printed text
 * (default: `key, value`) and the processor name. Immutable: `with*` returns a copy, which writes
 * to the same output.
 */
import type { KeyValueMapper } from './functions.js'
import { FileOutput, stdoutOutput } from './internal/print-output.js'
import type { PrintOutput } from './internal/print-output.js'
import { validateName } from './named.js'

interface PrintedFields<K, V> {
  readonly output: PrintOutput
  readonly label?: string | undefined
  readonly mapper: KeyValueMapper<K, V, string>
  readonly name?: string | undefined
}

function defaultMapper(key: unknown, value: unknown): string {
  return `${String(key)}, ${String(value)}`
}

/** How KStream.print prints (Kafka Streams' Printed): output, label, key-value mapper, processor name. */
export class Printed<K, V> {
  /** @internal */
  readonly output: PrintOutput
  /** The label printed in brackets before each record; undefined: the name of the stream's node printed. */
  readonly label: string | undefined
  /** Turns a record's key and value into the printed text (default: `key, value`). */
  readonly mapper: KeyValueMapper<K, V, string>
  /** The print processor's name; undefined: a generated `KSTREAM-PRINTER-` one. */
  readonly name: string | undefined

  private constructor(fields: PrintedFields<K, V>) {
    this.output = fields.output
    this.label = fields.label
    this.mapper = fields.mapper
    this.name = fields.name
  }

  /** Prints to standard output (`process.stdout`). */
  static toSysOut<K = unknown, V = unknown>(): Printed<K, V> {
    return new Printed<K, V>({ output: stdoutOutput, mapper: defaultMapper })
  }

  /**
   * Prints to the file at `filePath`, in UTF-8: the file is created, or truncated, now (as
   * Kafka's), and closed when the last print processor using it closes. Throws a TopologyError
   * (`TOPOLOGY_INVALID`, "Unable to write stream to file at [path] ...") when it cannot be opened.
   */
  static toFile<K = unknown, V = unknown>(filePath: string): Printed<K, V> {
    return new Printed<K, V>({ output: new FileOutput(filePath), mapper: defaultMapper })
  }

  /** A copy printing `label` instead of the name of the stream's node. */
  withLabel(label: string): Printed<K, V> {
    return new Printed({ ...this.#fields(), label })
  }

  /** A copy printing `mapper(key, value)` after the label instead of `key, value`. */
  withKeyValueMapper(mapper: KeyValueMapper<K, V, string>): Printed<K, V> {
    return new Printed({ ...this.#fields(), mapper })
  }

  /** A copy naming the print processor (Named's rules). */
  withName(processorName: string): Printed<K, V> {
    return new Printed({ ...this.#fields(), name: validateName(processorName) })
  }

  #fields(): PrintedFields<K, V> {
    return { output: this.output, label: this.label, mapper: this.mapper, name: this.name }
  }
}
