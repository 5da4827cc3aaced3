/**
 * A node of a task's processor graph: a processor instance with its children and the names of
 * the stores it may use. Wraps what user code throws with the node and task. @internal
 */
import type { Processor } from '../processor/api.js'
import type { Record } from '../record.js'
import { ProcessingError, StreamsError } from '../errors.js'
import type { ProcessorContextImpl } from './processor-context-impl.js'
import { bypassesProcessingHandler, markHandled } from './handled-error.js'
import type { Sensor } from '../metrics/sensor.js'

export class ProcessorNode {
  readonly name: string
  readonly stores: ReadonlySet<string>
  readonly children: ProcessorNode[] = []
  readonly #childByName = new Map<string, ProcessorNode>()
  readonly #processor: Processor<any, any, any, any> | undefined
  protected context: ProcessorContextImpl | undefined
  /** Counts the records this node processes (the DEBUG-level node metrics); set by the task when they are on. */
  processSensor: Sensor | undefined

  constructor(name: string, processor: Processor<any, any, any, any> | undefined, stores: ReadonlySet<string> = new Set()) {
    this.name = name
    this.#processor = processor
    this.stores = stores
  }

  addChild(child: ProcessorNode): void {
    this.children.push(child)
    this.#childByName.set(child.name, child)
  }

  child(name: string): ProcessorNode | undefined {
    return this.#childByName.get(name)
  }

  init(context: ProcessorContextImpl): void {
    this.context = context
    try {
      this.#processor?.init?.(context)
    } catch (err) {
      throw wrap(err, `Failed to initialize processor ${this.name}`, context)
    }
  }

  process(record: Record<unknown, unknown>): void {
    try {
      this.#processor!.process(record)
    } catch (err) {
      // What a handler below already decided on, a failed send and a migrated or corrupted task
      // pass through; anything else user code threw (StreamsErrors too, e.g. a null key put into
      // a store) goes to the handler, as in Kafka Streams' ProcessorNode.
      if (bypassesProcessingHandler(err)) throw err
      const rc = this.context?.recordContext
      let response: 'CONTINUE' | 'FAIL' | undefined
      try {
        response = this.context?.processingErrorResponse(err instanceof Error ? err : new Error(String(err)), this.name, record)
      } catch (handlerError) {
        throw markHandled(
          new ProcessingError(
            `The processing exception handler failed on an error of processor ${this.name}: ${handlerError instanceof Error ? handlerError.message : String(handlerError)}`,
            { cause: handlerError, taskId: this.context?.taskId.toString() }
          )
        )
      }
      if (response === 'CONTINUE') return
      throw markHandled(
        wrap(
          err,
          `Exception caught in process. taskId=${String(this.context?.taskId)}, processor=${this.name}, topic=${rc?.topic ?? ''}, partition=${rc?.partition ?? -1}, offset=${rc?.offset ?? -1}`,
          this.context
        )
      )
    }
  }

  close(): void {
    try {
      this.#processor?.close?.()
    } catch (err) {
      throw wrap(err, `Failed to close processor ${this.name}`, this.context)
    }
  }
}

/** Framework errors pass through with their own code; anything user code threw is wrapped. */
export function wrap(err: unknown, message: string, context: ProcessorContextImpl | undefined): StreamsError {
  if (err instanceof StreamsError) return err
  const detail = err instanceof Error ? err.message : String(err)
  return new ProcessingError(`${message}: ${detail}`, { cause: err, taskId: context?.taskId.toString() })
}
