/**
 * What a started cluster leaves in its run directory so that another process (`kafka-local stop`,
 * `.ci/run`, tests) can find it: `cluster.json` (version, cluster id, every node with its pid,
 * ports and paths, the security settings with the test users' passwords) and `bootstrap.servers`
 * (one line, e.g. "127.0.0.1:40123").
 */
import { readFile, rm, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrokerNode } from './broker-config.js'
import type { BrokerLogLevel } from './logging-config.js'
import type { SecurityRecord } from './security-options.js'

/** One node as recorded in cluster.json: its paths and ports, and the pid of its JVM. */
export interface BrokerRecord extends BrokerNode {
  readonly pid: number
}

/** How the JVMs were launched, so a restart by another process launches them the same way. */
export interface LaunchRecord {
  readonly heap?: string
  readonly jvmArgs?: readonly string[]
  readonly logLevel?: BrokerLogLevel
  readonly classDataSharing?: boolean
}

/** The content of cluster.json: everything another process needs to find, stop or restart the brokers. */
export interface ClusterState {
  readonly kafkaVersion: string
  readonly clusterId: string
  readonly cacheDir: string
  readonly javaCommand: string
  readonly bootstrapServers: string
  readonly startedAt: string
  readonly launch: LaunchRecord
  readonly brokers: readonly BrokerRecord[]
  /** The secured listener's settings and credentials; absent for a PLAINTEXT cluster. */
  readonly security?: SecurityRecord
}

/** File name of the recorded cluster state in the run directory. */
export const STATE_FILE = 'cluster.json'
/** File name, in the run directory, of the one-line bootstrap servers of a started cluster. */
export const BOOTSTRAP_FILE = 'bootstrap.servers'

/** Records the cluster in runDir (cluster.json and bootstrap.servers), each file replaced atomically. */
export async function writeClusterState(runDir: string, state: ClusterState): Promise<void> {
  await writeAtomic(join(runDir, STATE_FILE), JSON.stringify(state, null, 2) + '\n')
  await writeAtomic(join(runDir, BOOTSTRAP_FILE), state.bootstrapServers + '\n')
}

/** The cluster recorded in runDir, or undefined when there is none. */
export async function readClusterState(runDir: string): Promise<ClusterState | undefined> {
  let text: string
  try {
    text = await readFile(join(runDir, STATE_FILE), 'utf8')
  } catch {
    return undefined
  }
  const state = JSON.parse(text) as ClusterState
  return Array.isArray(state.brokers) ? state : undefined
}

/** Forgets the recorded cluster (node directories stay, for post-mortems). */
export async function clearClusterState(runDir: string): Promise<void> {
  await rm(join(runDir, STATE_FILE), { force: true })
  await rm(join(runDir, BOOTSTRAP_FILE), { force: true })
}

async function writeAtomic(path: string, content: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`
  await writeFile(tmp, content)
  await rename(tmp, path)
}
