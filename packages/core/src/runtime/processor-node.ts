/**
 * A node of a task's processor graph: a processor instance with its children and the names of
 * the stores it may use. Wraps what user code throws with the node and task. @internal
 */
import type { Processor } from '../processor/api.js'
import type { Record } from '../record.js'
import { ProcessingError, StreamsError } from '../errors.js'
import type { ProcessorContextImpl } from './processor-context-impl.js'

export class ProcessorNode {
  readonly name: string
  readonly stores: ReadonlySet<string>
  readonly children: ProcessorNode[] = []
  readonly #childByName = new Map<string, ProcessorNode>()
  readonly #processor: Processor<any, any, any, any> | undefined
  protected context: ProcessorContextImpl | undefined

  constructor (name: string, processor: Processor<any, any, any, any> | undefined, stores: ReadonlySet<string> = new Set()) {
    this.name = name
    this.#processor = processor
    this.stores = stores
  }

  addChild (child: ProcessorNode): void {
    this.children.push(child)
    this.#childByName.set(child.name, child)
  }

  child (name: string): ProcessorNode | undefined {
    return this.#childByName.get(name)
  }

  init (context: ProcessorContextImpl): void {
    this.context = context
    try {
      this.#processor?.init?.(context)
    } catch (err) {
      throw wrap(err, `Failed to initialize processor ${this.name}`, context)
    }
  }

  process (record: Record<unknown, unknown>): void {
    try {
      this.#processor!.process(record)
    } catch (err) {
      const rc = this.context?.recordContext
      // Framework errors (and errors already handled downstream) pass through; user errors go to the handler.
      if (!(err instanceof StreamsError) && this.context?.processingErrorResponse(err instanceof Error ? err : new Error(String(err)), this.name) === 'CONTINUE') return
      throw wrap(err, `Exception caught in process. taskId=${String(this.context?.taskId)}, processor=${this.name}, topic=${rc?.topic ?? ''}, partition=${rc?.partition ?? -1}, offset=${rc?.offset ?? -1}`, this.context)
    }
  }

  close (): void {
    try {
      this.#processor?.close?.()
    } catch (err) {
      throw wrap(err, `Failed to close processor ${this.name}`, this.context)
    }
  }
}

/** Framework errors pass through with their own code; anything user code threw is wrapped. */
export function wrap (err: unknown, message: string, context: ProcessorContextImpl | undefined): StreamsError {
  if (err instanceof StreamsError) return err
  const detail = err instanceof Error ? err.message : String(err)
  return new ProcessingError(`${message}: ${detail}`, { cause: err, taskId: context?.taskId.toString() })
}
