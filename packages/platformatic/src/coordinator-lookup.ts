/**
 * Finds and caches the coordinator of one group (FindCoordinator v6, key type GROUP) and gives
 * a connection to it. `forget()` after NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a lost
 * connection or an unanswered request makes the next request find it again.
 */
import { findCoordinatorV6, type Broker, type Connection } from '@platformatic/kafka'
import { isKafkaError } from '@kstreams/core'
import type { BrokerConnections } from './broker-connections.js'
import { fromErrorCode } from './platformatic-errors.js'

const GROUP_KEY_TYPE = 0
/** After these the cached coordinator may be wrong or unreachable. */
const FORGET_COORDINATOR = ['NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE', 'NETWORK_EXCEPTION', 'REQUEST_TIMED_OUT'] as const

export class CoordinatorLookup {
  readonly #connections: BrokerConnections
  readonly #groupId: string
  #coordinator: Promise<Broker> | undefined

  constructor(connections: BrokerConnections, groupId: string) {
    this.#connections = connections
    this.#groupId = groupId
  }

  /** A connection to the group's coordinator (on `connections`, or another set of connections to the same cluster). */
  async connection(what: string, connections: BrokerConnections = this.#connections): Promise<Connection> {
    const found = this.#find(what)
    try {
      return await connections.connect(await found, what)
    } catch (error) {
      this.forgetAfter(error, found)
      throw error
    }
  }

  /** Forgets the coordinator when `error` says it may have moved (only the lookup `found`, when given). */
  forgetAfter(error: unknown, found: Promise<Broker> | undefined = this.#coordinator): void {
    if (isKafkaError(error, ...FORGET_COORDINATOR) && this.#coordinator === found) this.#coordinator = undefined
  }

  #find(what: string): Promise<Broker> {
    if (this.#coordinator !== undefined) return this.#coordinator
    const found = (async () => {
      const connection = await this.#connections.any(what)
      const response = await this.#connections.request(
        connection,
        findCoordinatorV6.api,
        [GROUP_KEY_TYPE, [this.#groupId]],
        `FindCoordinator of group ${this.#groupId}`
      )
      const answer = response.coordinators.find(c => c.key === this.#groupId) ?? response.coordinators[0]
      if (answer === undefined) throw fromErrorCode(KAFKA_COORDINATOR_NOT_AVAILABLE, `FindCoordinator of group ${this.#groupId}`)
      if (answer.errorCode !== 0)
        throw fromErrorCode(answer.errorCode, `FindCoordinator of group ${this.#groupId}`, answer.errorMessage, {
          api: 'FindCoordinator',
          group: this.#groupId
        })
      return { host: answer.host, port: answer.port }
    })()
    this.#coordinator = found
    found.catch(() => {
      if (this.#coordinator === found) this.#coordinator = undefined
    })
    return found
  }
}

const KAFKA_COORDINATOR_NOT_AVAILABLE = 15
