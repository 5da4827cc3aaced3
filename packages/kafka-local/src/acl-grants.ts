/**
 * ACLs for tests on a cluster with the authorizer: created through kafkajs' admin client as the
 * super user, then waited for until the brokers' authorizer lists them (KRaft applies ACLs from
 * the metadata log, a moment after CreateAcls returns), so the next request of a test already
 * meets them.
 */
import {
  Kafka,
  logLevel,
  type AclEntry,
  type AclOperationTypes,
  type AclPermissionTypes,
  type AclResourceTypes,
  type KafkaConfig,
  type ResourcePatternTypes
} from 'kafkajs'
import { KafkaLocalError } from './kafka-local-error.js'

/** An ACL operation, as Kafka names them in lower case. */
export type AclOperation =
  | 'all'
  | 'read'
  | 'write'
  | 'create'
  | 'delete'
  | 'alter'
  | 'describe'
  | 'cluster-action'
  | 'describe-configs'
  | 'alter-configs'
  | 'idempotent-write'

/** One grant: operations on one resource (or, with 'prefixed', on every resource whose name starts with `name`). */
export interface AclGrant {
  /** The kind of resource; 'cluster' needs no name. */
  readonly resource: 'topic' | 'group' | 'cluster' | 'transactional-id'
  /** The resource's name (or prefix); ignored for 'cluster'. */
  readonly name?: string
  /** 'literal' (default) or 'prefixed'. */
  readonly patternType?: 'literal' | 'prefixed'
  /** What is allowed (or denied). */
  readonly operations: readonly AclOperation[]
  /** 'allow' (default) or 'deny'. */
  readonly permission?: 'allow' | 'deny'
}

// Kafka's protocol codes (kafkajs' enums are not reachable as named ESM exports of its CommonJS module).
const RESOURCES: Readonly<Record<AclGrant['resource'], AclResourceTypes>> = {
  topic: 2,
  group: 3,
  cluster: 4,
  'transactional-id': 5
}

const OPERATIONS: Readonly<Record<AclOperation, AclOperationTypes>> = {
  all: 2,
  read: 3,
  write: 4,
  create: 5,
  delete: 6,
  alter: 7,
  describe: 8,
  'cluster-action': 9,
  'describe-configs': 10,
  'alter-configs': 11,
  'idempotent-write': 12
}
const LITERAL: ResourcePatternTypes = 3
const PREFIXED: ResourcePatternTypes = 4
const DENY: AclPermissionTypes = 2
const ALLOW: AclPermissionTypes = 3

/** The ACL entries of `grants` for `principal` ("alice" means "User:alice"), from any host. */
export function aclEntries(principal: string, grants: readonly AclGrant[]): AclEntry[] {
  const fullPrincipal = principal.includes(':') ? principal : `User:${principal}`
  return grants.flatMap(grant => {
    const resourceType = RESOURCES[grant.resource]
    if (resourceType === undefined) throw new KafkaLocalError('INVALID_OPTION', `unknown ACL resource "${String(grant.resource)}"`)
    const resourceName = grant.resource === 'cluster' ? 'kafka-cluster' : grant.name
    if (resourceName === undefined || resourceName === '') {
      throw new KafkaLocalError('INVALID_OPTION', `an ACL on a ${grant.resource} needs its name`)
    }
    return grant.operations.map(operation => {
      const code = OPERATIONS[operation]
      if (code === undefined) throw new KafkaLocalError('INVALID_OPTION', `unknown ACL operation "${String(operation)}"`)
      return {
        resourceType,
        resourceName,
        resourcePatternType: grant.patternType === 'prefixed' ? PREFIXED : LITERAL,
        principal: fullPrincipal,
        host: '*',
        operation: code,
        permissionType: grant.permission === 'deny' ? DENY : ALLOW
      }
    })
  })
}

/** Creates the ACLs through `client` (a super user's kafkajs config) and waits until the cluster lists every one. */
export async function createAcls(
  client: Omit<KafkaConfig, 'clientId' | 'logLevel'>,
  entries: readonly AclEntry[],
  timeoutMs = 30_000
): Promise<void> {
  const admin = new Kafka({ ...client, clientId: 'kstreams-kafka-local-acls', logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    await admin.createAcls({ acl: [...entries] })
    const deadline = Date.now() + timeoutMs
    for (const entry of entries) {
      for (;;) {
        const found = await admin.describeAcls({ ...entry })
        if (found.resources.some(r => r.acls.length > 0)) break
        if (Date.now() > deadline) {
          throw new KafkaLocalError(
            'ACL_TIMEOUT',
            `ACL for ${entry.principal} on ${entry.resourceName} did not show up within ${timeoutMs} ms`
          )
        }
        await new Promise(resolve => setTimeout(resolve, 100))
      }
    }
  } finally {
    await admin.disconnect()
  }
}
