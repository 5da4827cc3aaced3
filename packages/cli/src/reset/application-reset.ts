/**
 * The application reset (Kafka's kafka-streams-application-reset, StreamsResetter), on the
 * AdminPort of a client adapter:
 * 1. refuses while the application's consumer group (group id = application id) has members,
 *    or with `force` removes them (LeaveGroup on their behalf);
 * 2. commits new offsets for the group: every partition of the input topics to the chosen
 *    position (earliest by default), every partition of the intermediate topics to its end;
 *    input or intermediate topics that do not exist are named and skipped, and the reset ends
 *    with exit code 1 after doing the rest, as Kafka's tool;
 * 3. deletes the application's internal topics (inferred by name, or the `internalTopics` given,
 *    which must be among the inferred ones) and waits until the broker no longer lists them.
 *    An inferred topic that is also another application's (`foo-bar-Counts-changelog` when
 *    resetting `foo`, prefix-collisions.ts) is left, named, and the reset ends with exit code 1;
 *    given in `internalTopics`, it is deleted. Refused, before anything changes, while that
 *    other application's group has members;
 * 4. says that local state is not touched: each instance must call `KafkaStreams.cleanUp()` or
 *    have its `<state.dir>/<application.id>` deleted before it restarts.
 * A dry run prints the same plan and changes nothing. @internal
 */
import {
  isKafkaError,
  tpKey,
  type AdminPort,
  type GroupMemberDescription,
  type TopicPartition,
  type TopicPartitionOffset
} from '@kstreams/core'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CliError, EXIT_CODES } from '../cli-error.js'
import type { Output } from '../output.js'
import { inferInternalTopics } from './internal-topics.js'
import { collisionEvidence, findPrefixCollisions, type PrefixCollision } from './prefix-collisions.js'
import type { ResetPosition } from './reset-position.js'

/** What to reset. */
export interface ResetRequest {
  readonly applicationId: string
  readonly inputTopics: readonly string[]
  readonly intermediateTopics: readonly string[]
  /**
   * Internal topics to delete instead of every inferred one (each must be an inferred one); the
   * way to delete an inferred topic that is also named like another application's.
   */
  readonly internalTopics: readonly string[]
  readonly position: ResetPosition
  readonly dryRun: boolean
  readonly force: boolean
  /** The instances' state.dir, to name the local state to clean up. */
  readonly stateDir: string | undefined
  /** How long to wait for deleted topics to leave the topic list. */
  readonly deleteWaitMs?: number
}

/** The internal topics the reset deletes, and those named like another application's too. */
interface InternalTopics {
  readonly topics: readonly string[]
  /** Whether `topics` are the ones given (`--internal-topics`), not the inferred ones. */
  readonly given: boolean
  /** Topics named like internal topics of another application too: left when inferred, deleted when given. */
  readonly collisions: readonly PrefixCollision[]
}

type ToolAdmin = AdminPort &
  Required<
    Pick<AdminPort, 'deleteTopics' | 'describeGroup' | 'alterConsumerGroupOffsets' | 'removeMembersFromConsumerGroup' | 'offsetsForTimes'>
  >

/** The admin, checked to have every request the reset needs (a CliError naming the client otherwise). */
export function toolAdmin(admin: AdminPort, client: string): ToolAdmin {
  const missing = (
    ['deleteTopics', 'describeGroup', 'alterConsumerGroupOffsets', 'removeMembersFromConsumerGroup', 'offsetsForTimes'] as const
  ).filter(m => typeof admin[m] !== 'function')
  if (missing.length > 0)
    throw new CliError('INVALID_CONFIG', `The Kafka client ${client} cannot reset an application: its admin has no ${missing.join(', ')}`)
  return admin as ToolAdmin
}

export class ApplicationReset {
  readonly #admin: ToolAdmin
  readonly #out: Output
  readonly #now: () => number

  constructor(options: { admin: ToolAdmin; out: Output; now?: () => number }) {
    this.#admin = options.admin
    this.#out = options.out
    this.#now = options.now ?? Date.now
  }

  /**
   * Runs the reset; resolves with the exit code (1 when an input or intermediate topic was
   * missing, or an inferred internal topic was left as another application's).
   */
  async run(request: ResetRequest): Promise<number> {
    await this.#requireNoActiveMembers(request)
    const allTopics = await this.#admin.listTopics()
    // Checked before anything changes (Kafka's tool finds a bad --internal-topics after committing the offsets).
    const internalTopics = await this.#internalTopicsToDelete(request, allTopics)
    if (request.dryRun) this.#out.line('Dry run: these are the actions a reset would take; nothing is changed.')
    const offsetsCode = await this.#resetOffsets(request, new Set(allTopics))
    await this.#deleteInternalTopics(request, internalTopics)
    this.#localStateHint(request)
    return internalTopics.given || internalTopics.collisions.length === 0 ? offsetsCode : EXIT_CODES.FAILED
  }

  async #requireNoActiveMembers(request: ResetRequest): Promise<void> {
    const groupId = request.applicationId
    const group = await this.#admin.describeGroup(groupId)
    if (group.members.length === 0) return
    if (!request.force)
      throw new CliError(
        'ILLEGAL_STATE',
        `Consumer group '${groupId}' is still active and has following members: ${describeMembers(group.members)}. ` +
          'Make sure to stop all running application instances before running the reset tool. ' +
          "You can use option '--force' to remove active members from the group."
      )
    this.#out.line(`--force: removing the active members of group ${groupId}: ${describeMembers(group.members)}`)
    if (request.dryRun) return
    try {
      await this.#admin.removeMembersFromConsumerGroup(groupId, group.members)
    } catch (error) {
      // A member that left by itself in the meantime is unknown to the coordinator: look again.
      if (!isKafkaError(error, 'UNKNOWN_MEMBER_ID')) throw error
      const again = await this.#admin.describeGroup(groupId)
      if (again.members.length > 0) await this.#admin.removeMembersFromConsumerGroup(groupId, again.members)
    }
  }

  async #resetOffsets(request: ResetRequest, allTopics: ReadonlySet<string>): Promise<number> {
    const { inputTopics, intermediateTopics } = request
    if (inputTopics.length === 0 && intermediateTopics.length === 0) {
      this.#out.line('No input or intermediate topics given: no offsets to reset.')
      return EXIT_CODES.OK
    }
    if (inputTopics.length > 0) this.#out.line(`Input topics to reset: ${inputTopics.join(', ')}`)
    if (intermediateTopics.length > 0) {
      this.#out.line('WARN: --intermediate-topics is deprecated in Kafka 4 (its tool will drop it)')
      this.#out.line(`Intermediate topics to move to their end: ${intermediateTopics.join(', ')}`)
    }
    let code: number = EXIT_CODES.OK
    for (const [kind, topics] of [
      ['input', inputTopics],
      ['intermediate', intermediateTopics]
    ] as const) {
      const missing = topics.filter(t => !allTopics.has(t))
      if (missing.length === 0) continue
      this.#out.line(`These ${kind} topics do not exist and are skipped:`)
      for (const topic of missing) this.#out.line(`Topic: ${topic}`)
      code = EXIT_CODES.FAILED
    }
    const input = await this.#partitions(inputTopics.filter(t => allTopics.has(t)))
    const intermediate = await this.#partitions(intermediateTopics.filter(t => allTopics.has(t) && !inputTopics.includes(t)))
    const offsets: TopicPartitionOffset[] = []
    if (input.length > 0) {
      this.#out.line(`Input topic offsets of consumer group ${request.applicationId} are reset to:`)
      for (const tp of await this.#inputOffsets(request, input)) {
        this.#out.line(`Topic: ${tp.topic} Partition: ${tp.partition} Offset: ${tp.offset}`)
        offsets.push(tp)
      }
    }
    if (intermediate.length > 0) {
      this.#out.line(`Intermediate topic offsets of consumer group ${request.applicationId} are set to their end:`)
      const ends = await this.#admin.endOffsets(intermediate)
      for (const tp of intermediate) {
        const offset = ends.get(tpKey(tp.topic, tp.partition))!
        this.#out.line(`Topic: ${tp.topic} Partition: ${tp.partition} Offset: ${offset}`)
        offsets.push({ ...tp, offset })
      }
    }
    if (!request.dryRun && offsets.length > 0) await this.#admin.alterConsumerGroupOffsets(request.applicationId, offsets)
    this.#out.line('Done.')
    return code
  }

  async #partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    if (topics.length === 0) return []
    const counts = await this.#admin.partitionCounts(topics)
    return topics.flatMap(topic => Array.from({ length: counts.get(topic) ?? 0 }, (_, partition) => ({ topic, partition })))
  }

  /** Each input partition's new offset, clamped to the partition's range as Kafka's tool does. */
  async #inputOffsets(request: ResetRequest, partitions: readonly TopicPartition[]): Promise<TopicPartitionOffset[]> {
    const { position } = request
    const [begins, ends] = [await this.#admin.beginningOffsets(partitions), await this.#admin.endOffsets(partitions)]
    const begin = (tp: TopicPartition): number => begins.get(tpKey(tp.topic, tp.partition))!
    const end = (tp: TopicPartition): number => ends.get(tpKey(tp.topic, tp.partition))!
    switch (position.kind) {
      case 'earliest':
        return partitions.map(tp => ({ ...tp, offset: begin(tp) }))
      case 'latest':
        return partitions.map(tp => ({ ...tp, offset: end(tp) }))
      case 'offset':
        return partitions.map(tp => ({ ...tp, offset: this.#clamp(tp, position.offset, begin(tp), end(tp)) }))
      case 'shift': {
        // From the committed offset; without one, where the reset tool's consumer would start (the end).
        const committed = await this.#admin.committedOffsets(request.applicationId, partitions)
        return partitions.map(tp => {
          const from = committed.get(tpKey(tp.topic, tp.partition)) ?? end(tp)
          return { ...tp, offset: this.#clamp(tp, from + position.by, begin(tp), end(tp)) }
        })
      }
      case 'datetime':
      case 'duration': {
        const timestamp = position.kind === 'datetime' ? position.timestamp : this.#now() - position.ms
        const found = await this.#admin.offsetsForTimes(
          partitions.map(tp => ({ ...tp, timestamp: Math.max(0, timestamp) })),
          'READ_UNCOMMITTED'
        )
        return partitions.map(tp => {
          const offset = found.get(tpKey(tp.topic, tp.partition))
          if (offset !== undefined) return { ...tp, offset }
          this.#out.line(
            `Partition ${tp.partition} of topic ${tp.topic} has no record at or after ${new Date(timestamp).toISOString()}: reset to its end.`
          )
          return { ...tp, offset: end(tp) }
        })
      }
    }
  }

  #clamp(tp: TopicPartition, offset: number, begin: number, end: number): number {
    if (offset > end) {
      this.#out.line(`Offset ${offset} is past the end of ${tpKey(tp.topic, tp.partition)}: using its end offset ${end}`)
      return end
    }
    if (offset < begin) {
      this.#out.line(`Offset ${offset} is before the beginning of ${tpKey(tp.topic, tp.partition)}: using its beginning offset ${begin}`)
      return begin
    }
    return offset
  }

  /**
   * The internal topics to delete: the inferred ones but those also named like another
   * application's, or those given (each must be an inferred one). Refused while one of them is
   * named like an internal topic of an application whose group has members.
   */
  async #internalTopicsToDelete(request: ResetRequest, allTopics: readonly string[]): Promise<InternalTopics> {
    const { applicationId } = request
    const userTopics = new Set([...request.inputTopics, ...request.intermediateTopics])
    const inferred = inferInternalTopics(applicationId, allTopics, userTopics)
    const given = request.internalTopics.length > 0
    const notInternal = request.internalTopics.filter(t => !inferred.includes(t))
    if (notInternal.length > 0)
      throw new CliError(
        'ILLEGAL_ARGUMENT',
        `--internal-topics names topics that are not internal topics of application ${applicationId}: ${notInternal.join(', ')}. ` +
          'Run a --dry-run without --internal-topics to see the internal topics that can be deleted.'
      )
    const chosen = given ? request.internalTopics : inferred
    const collisions = await findPrefixCollisions(groupId => this.#admin.describeGroup(groupId), applicationId, chosen)
    const shared = new Set(collisions.map(c => c.topic))
    const running = collisions.find(c => c.group !== undefined && c.group.members.length > 0)
    if (running !== undefined) {
      const other = running.applicationId
      const otherTopics = collisions.filter(c => c.applicationId === other).map(c => c.topic)
      const ownTopics = chosen.filter(t => !shared.has(t))
      throw new CliError(
        'ILLEGAL_STATE',
        `Internal topics of application ${applicationId} are also named like internal topics of application ${other}: ` +
          `${otherTopics.join(', ')}. Consumer group '${other}' is still active and has following members: ` +
          `${describeMembers(running.group!.members)}. Stop every instance of ${other} before resetting ${applicationId}` +
          (ownTopics.length === 0 ? '.' : `, or give --internal-topics ${ownTopics.join(',')} to delete only those.`)
      )
    }
    return { topics: given ? chosen : chosen.filter(t => !shared.has(t)), given, collisions }
  }

  async #deleteInternalTopics(request: ResetRequest, { topics, given, collisions }: InternalTopics): Promise<void> {
    this.#out.line(`Internal topics to delete (${given ? 'given' : 'inferred'}): ${topics.join(', ') || 'none'}`)
    if (collisions.length > 0) {
      this.#out.line(
        given
          ? 'These are deleted as --internal-topics names them, though also named like internal topics of another application:'
          : `These are also named like internal topics of another application and are left (name them in --internal-topics to delete them as ${request.applicationId}'s):`
      )
      for (const collision of collisions) this.#out.line(`Topic: ${collision.topic} (${collisionEvidence(collision)})`)
    }
    if (!request.dryRun && topics.length > 0) {
      await this.#admin.deleteTopics(topics)
      await this.#awaitDeleted(topics, request.deleteWaitMs ?? 30_000)
    }
    this.#out.line('Done.')
  }

  /** Until the broker no longer lists the deleted topics (deletion completes asynchronously), at most `waitMs`. */
  async #awaitDeleted(topics: readonly string[], waitMs: number): Promise<void> {
    const deadline = this.#now() + waitMs
    for (;;) {
      const listed = new Set(await this.#admin.listTopics())
      const left = topics.filter(t => listed.has(t))
      if (left.length === 0) return
      if (this.#now() >= deadline) {
        this.#out.line(
          `Still listed by the broker ${waitMs} ms after the deletion: ${left.join(', ')} (the broker finishes deleting them on its own)`
        )
        return
      }
      await new Promise(r => setTimeout(r, 200))
    }
  }

  #localStateHint(request: ResetRequest): void {
    this.#out.line('')
    this.#out.line('Local state is not reset by this tool: you will get wrong results unless every instance of the application')
    this.#out.line('calls KafkaStreams.cleanUp() before it starts again, or has its state directory for this application deleted.')
    if (request.stateDir === undefined) {
      this.#out.line(`That is <stateDir>/${request.applicationId} (give --state-dir to check it on this machine).`)
      return
    }
    const dir = resolve(request.stateDir, request.applicationId)
    if (!existsSync(dir)) {
      this.#out.line(`On this machine: ${dir} does not exist (nothing to clean up here).`)
      return
    }
    const tasks = readdirSync(dir).filter(name => /^\d+_\d+$/.test(name) || name === 'global')
    this.#out.line(
      `On this machine: delete ${dir} (${tasks.length} task director${tasks.length === 1 ? 'y' : 'ies'}: ${tasks.join(', ') || 'none'}),`
    )
    this.#out.line(`for example: rm -rf '${join(dir).replaceAll("'", "'\\''")}'`)
  }
}

function describeMembers(members: readonly GroupMemberDescription[]): string {
  return `[${members
    .map(m => `(memberId=${m.memberId}, groupInstanceId=${m.groupInstanceId ?? 'null'}, clientId=${m.clientId}, host=${m.clientHost})`)
    .join(', ')}]`
}
