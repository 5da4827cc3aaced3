/**
 * The internal topics of an application that may be another application's: the reset of `foo`
 * infers `foo-bar-Counts-changelog` as foo's (a store `bar-Counts`), but it is also the changelog
 * of store `Counts` of application `foo-bar`. Names alone cannot tell, so a topic counts as
 * another application's when there is evidence of that application:
 * - its consumer group exists (DescribeGroups: members, or committed offsets kept after they
 *   left, until `offsets.retention.minutes` after the last one left), or
 * - the topic's name after `<other id>-` is one the Kafka Streams DSL generates
 *   (`foo-bar-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog`), which no store of `foo` is
 *   named by (`bar-KSTREAM-...`).
 * A topic whose name after `foo-` (or `<other id>-`) is a generated one is foo's (or that
 * application's), whatever longer ids would cut the name in two. A store named by its application
 * (`Counts`) of an application whose group is gone leaves no evidence: such a topic is foo's, as
 * in Kafka's tool. @internal
 */
import type { GroupDescription } from '@kstreams/core'
import { hasGeneratedName, otherApplicationIds } from './internal-topics.js'

/** A topic named like an internal topic of the application reset and of another one. */
export interface PrefixCollision {
  readonly topic: string
  /** The other application (a longer id: `<reset id>-...`). */
  readonly applicationId: string
  /** Its consumer group, when there is one (with members or committed offsets); otherwise the topic has a name generated for it. */
  readonly group: GroupDescription | undefined
}

/** The collisions of `topics` (internal topics of `applicationId`), looking up each other application's group once. */
export async function findPrefixCollisions(
  describeGroup: (groupId: string) => Promise<GroupDescription>,
  applicationId: string,
  topics: readonly string[]
): Promise<PrefixCollision[]> {
  const groups = new Map<string, GroupDescription | undefined>()
  const existingGroup = async (groupId: string): Promise<GroupDescription | undefined> => {
    if (!groups.has(groupId)) {
      const group = await describeGroup(groupId)
      groups.set(groupId, group.state !== 'Dead' || group.members.length > 0 ? group : undefined)
    }
    return groups.get(groupId)
  }
  const collisions: PrefixCollision[] = []
  for (const topic of topics) {
    if (hasGeneratedName(applicationId, topic)) continue
    for (const other of otherApplicationIds(applicationId, topic)) {
      const generated = hasGeneratedName(other, topic)
      const group = await existingGroup(other)
      if (group !== undefined || generated) collisions.push({ topic, applicationId: other, group })
      // A longer id would cut a generated name in two.
      if (generated) break
    }
  }
  return collisions
}

/** Why the topic is taken for the other application's, for the reset's output. */
export function collisionEvidence(collision: PrefixCollision): string {
  const { applicationId, group } = collision
  return group === undefined
    ? `application ${applicationId}: its name after ${applicationId}- is one Kafka Streams generates`
    : `application ${applicationId}: its consumer group exists (${group.state})`
}
