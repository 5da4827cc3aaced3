/**
 * A lifecycle state machine: a state union, the table of valid transitions, and an error naming
 * the object and both states when a transition is not allowed. @internal
 */
import { IllegalStateError } from '../errors.js'

export class Lifecycle<S extends string> {
  readonly #name: string
  readonly #transitions: Readonly<Record<S, readonly S[]>>
  readonly #onChange: ((from: S, to: S) => void) | undefined
  #state: S

  constructor(name: string, initial: S, transitions: Readonly<Record<S, readonly S[]>>, onChange?: (from: S, to: S) => void) {
    this.#name = name
    this.#state = initial
    this.#transitions = transitions
    this.#onChange = onChange
  }

  get state(): S {
    return this.#state
  }

  canTransition(to: S): boolean {
    return this.#transitions[this.#state].includes(to)
  }

  transition(to: S): void {
    const from = this.#state
    if (!this.canTransition(to)) throw new IllegalStateError(`Invalid transition of ${this.#name} from ${from} to ${to}`)
    this.#state = to
    if (from !== to) this.#onChange?.(from, to)
  }
}
