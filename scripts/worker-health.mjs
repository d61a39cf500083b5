// Container health check for the worker process (it serves no HTTP): healthy when this container's
// worker is polling its task queue. The SDK's default worker identity is `<pid>@<hostname>`, and a
// container's hostname is its own, so a poller from this host means this worker, not a sibling.
// Plain JavaScript so `node` runs it without tsx.
import { hostname } from 'node:os'
import { Connection } from '@temporalio/client'

const address = process.env.TEMPORAL_ADDRESS ?? 'localhost:7233'
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default'
const taskQueue = process.env.TEMPORAL_TASK_QUEUE ?? 'tradie-main'

try {
  const connection = await Connection.connect({ address, connectTimeout: 3000 })
  const { pollers } = await connection.workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue } })
  await connection.close()
  const mine = (pollers ?? []).some((poller) => poller.identity?.endsWith(`@${hostname()}`))
  if (!mine) console.error(`no poller from ${hostname()} on task queue ${taskQueue}`)
  process.exit(mine ? 0 : 1)
} catch (error) {
  console.error(`worker health check failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
