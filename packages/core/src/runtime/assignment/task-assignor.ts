/**
 * The high-availability task assignor (Kafka Streams' HighAvailabilityTaskAssignor, KIP-441),
 * made sticky: decides which client (process) runs each task as active and which keep standby
 * and warm-up copies. Pure logic over task ids; see StreamsPartitionAssignor for where the
 * inputs come from.
 *
 * 1. Stateful actives are balanced over clients by capacity (threads). A task stays with its
 *    previous owner while that owner is within its quota; the others prefer caught-up clients.
 * 2. Task movement: when a task's balanced target is not caught up (lag above
 *    `acceptableRecoveryLag`) but another client is, the active goes to a caught-up client (the
 *    one running it, else the least loaded) and the target is to catch up first; a probing
 *    rebalance is then needed.
 * 3. Stateless actives fill the clients so that active tasks per thread stay balanced.
 * 4. Standbys (`numStandbyReplicas` per stateful task, never on the client hosting the active or
 *    another copy) stay where they were while within quota. A movement target gets a free
 *    standby slot, else a warm-up replica (at most `maxWarmupReplicas` per rebalance) that does
 *    not count as a standby. Remaining standbys go to the least loaded clients. @internal
 */
import { fillBalanced, leastLoaded, minBy } from './balanced-fill.js'
import { ClientState } from './client-state.js'
import type { ClientInput } from './client-state.js'
import { compareTaskIds, sortedTaskIds } from './task-ids.js'

export interface TaskAssignorConfig {
  readonly numStandbyReplicas: number
  readonly acceptableRecoveryLag: number
  readonly maxWarmupReplicas: number
}

export interface TaskAssignmentInput {
  /** Clients by process id. */
  readonly clients: ReadonlyMap<string, ClientInput>
  readonly allTasks: Iterable<string>
  /** The tasks with logged state (these get standbys and are placed by lag). */
  readonly statefulTasks: ReadonlySet<string>
  readonly config: TaskAssignorConfig
}

export interface ClientTaskAssignment {
  /** Sorted task ids. */
  readonly active: readonly string[]
  /** Sorted task ids, warm-ups included. */
  readonly standby: readonly string[]
  /** The standby tasks that are warm-up replicas. */
  readonly warmups: readonly string[]
}

export interface TaskAssignment {
  readonly clients: Map<string, ClientTaskAssignment>
  /** True when some active tasks are kept away from their balanced target until it catches up. */
  readonly probingRebalanceNeeded: boolean
  /** Standby replicas that could not be placed for lack of clients. */
  readonly missingStandbys: number
}

interface Movement {
  readonly task: string
  readonly destination: ClientState
  readonly caughtUpClients: number
}

export function assignTasks(input: TaskAssignmentInput): TaskAssignment {
  const { config } = input
  const clients = [...input.clients.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, client]) => new ClientState(id, client))
  const allTasks = sortedTaskIds(new Set(input.allTasks))
  const stateful = allTasks.filter(task => input.statefulTasks.has(task))
  const statelessTasks = allTasks.filter(task => !input.statefulTasks.has(task))
  const order = new Map(clients.map((client, i) => [client, i]))

  const caughtUp = new Map<string, ClientState[]>()
  for (const task of stateful)
    caughtUp.set(
      task,
      clients.filter(client => client.isCaughtUp(task, config.acceptableRecoveryLag))
    )
  const isCaughtUp = (client: ClientState, task: string): boolean => caughtUp.get(task)!.includes(client)

  assignStatefulActives(clients, stateful, caughtUp, order)
  const movements = moveToCaughtUpClients(clients, stateful, caughtUp, order)

  const statelessSet = new Set(statelessTasks)
  fillBalanced({
    bins: clients,
    tasks: statelessTasks,
    initialCount: client => client.active.size,
    previousTasks: client => sortedTaskIds([...client.input.previousActive].filter(task => statelessSet.has(task))),
    choose: leastLoaded,
    place: (client, task) => client.active.add(task)
  })

  const missingStandbys = assignStandbys(clients, stateful, movements, config, order, isCaughtUp)

  const result = new Map<string, ClientTaskAssignment>()
  for (const client of clients) {
    result.set(client.id, {
      active: sortedTaskIds(client.active),
      standby: sortedTaskIds(client.standby),
      warmups: sortedTaskIds(client.warmups)
    })
  }
  return { clients: result, probingRebalanceNeeded: movements.length > 0, missingStandbys }
}

function assignStatefulActives(
  clients: ClientState[],
  stateful: string[],
  caughtUp: Map<string, ClientState[]>,
  order: Map<ClientState, number>
): void {
  const statefulSet = new Set(stateful)
  // Tasks with few caught-up clients choose first, so they find room on one of them.
  const byConstraint = (task: string): number => caughtUp.get(task)!.length || Number.MAX_SAFE_INTEGER
  const tasks = [...stateful].sort((a, b) => byConstraint(a) - byConstraint(b) || compareTaskIds(a, b))
  fillBalanced({
    bins: clients,
    tasks,
    initialCount: () => 0,
    // An owner over its quota gives up first the tasks another client is caught up on.
    previousTasks: client =>
      [...client.input.previousActive]
        .filter(task => statefulSet.has(task))
        .sort(
          (a, b) =>
            Number(caughtUp.get(a)!.some(c => c !== client)) - Number(caughtUp.get(b)!.some(c => c !== client)) || compareTaskIds(a, b)
        ),
    choose: (task, candidates, countOf) =>
      minBy(candidates, client => {
        const up = caughtUp.get(task)!.includes(client)
        return [up ? 0 : 1, up ? 0 : client.lagRank(task), countOf(client) / client.capacity, order.get(client)!]
      }),
    place: (client, task) => client.active.add(task)
  })
}

function moveToCaughtUpClients(
  clients: ClientState[],
  stateful: string[],
  caughtUp: Map<string, ClientState[]>,
  order: Map<ClientState, number>
): Movement[] {
  const owner = new Map<string, ClientState>()
  for (const client of clients) for (const task of client.active) owner.set(task, client)
  const movements: Movement[] = []
  for (const task of stateful) {
    const target = owner.get(task)!
    const candidates = caughtUp.get(task)!
    if (candidates.length === 0 || candidates.includes(target)) continue
    const source = minBy(candidates, client => [
      client.lagRank(task) === -1 ? 0 : 1,
      client.activeLoad(),
      client.lagRank(task),
      order.get(client)!
    ])
    target.active.delete(task)
    source.active.add(task)
    movements.push({ task, destination: target, caughtUpClients: candidates.length })
  }
  return movements.sort((a, b) => a.caughtUpClients - b.caughtUpClients || compareTaskIds(a.task, b.task))
}

function assignStandbys(
  clients: ClientState[],
  stateful: string[],
  movements: Movement[],
  config: TaskAssignorConfig,
  order: Map<ClientState, number>,
  isCaughtUp: (client: ClientState, task: string) => boolean
): number {
  const slots = new Map(stateful.map(task => [task, config.numStandbyReplicas]))
  const totalCapacity = clients.reduce((sum, client) => sum + client.capacity, 0)
  const copies = Math.min(config.numStandbyReplicas, clients.length - 1)
  const quota = (client: ClientState): number => Math.ceil((stateful.length * copies * client.capacity) / totalCapacity)
  const add = (client: ClientState, task: string): void => {
    client.standby.add(task)
    slots.set(task, slots.get(task)! - 1)
  }

  // Copies stay where they were (the clients with the least lag first) while within quota.
  for (const task of stateful) {
    const holders = clients
      .filter(client => !client.hasTask(task) && (client.input.previousStandby.has(task) || client.input.previousActive.has(task)))
      .sort((a, b) => a.lagRank(task) - b.lagRank(task) || order.get(a)! - order.get(b)!)
    for (const holder of holders) {
      if (slots.get(task)! > 0 && holder.standby.size < quota(holder)) add(holder, task)
    }
  }

  // A movement target catches up through a free standby slot, else through a warm-up replica.
  let warmupsLeft = config.maxWarmupReplicas
  for (const { task, destination } of movements) {
    if (destination.hasTask(task)) continue
    if (slots.get(task)! > 0) {
      add(destination, task)
    } else if (warmupsLeft > 0) {
      destination.standby.add(task)
      destination.warmups.add(task)
      warmupsLeft--
    }
  }

  // The rest go to the clients with the fewest standbys, then the least loaded.
  const fresh = new Map<ClientState, string[]>(clients.map(client => [client, []]))
  let missing = 0
  for (const task of stateful) {
    while (slots.get(task)! > 0) {
      const candidates = clients.filter(client => !client.hasTask(task))
      if (candidates.length === 0) {
        missing += slots.get(task)!
        break
      }
      const chosen = minBy(candidates, client => [
        client.standby.size < quota(client) ? 0 : 1,
        client.standby.size / client.capacity,
        client.totalLoad(),
        isCaughtUp(client, task) ? 0 : 1,
        client.lagRank(task),
        order.get(client)!
      ])
      add(chosen, task)
      fresh.get(chosen)!.push(task)
    }
  }

  // Greedy placement can paint itself into a corner; move fresh copies off clients over quota.
  for (const over of clients) {
    for (const task of [...fresh.get(over)!]) {
      if (over.standby.size <= quota(over)) break
      const under = clients.find(client => client.standby.size < quota(client) && !client.hasTask(task))
      if (under === undefined) continue
      over.standby.delete(task)
      under.standby.add(task)
      fresh.get(under)!.push(task)
    }
  }
  return missing
}
