// Repairs postgres.js 3.4.9's handling of a connection that closes under it (Postgres restarted, a
// backend terminated, a failover), run by `npm install` (postinstall). Without it, terminating the
// service's backends under load (test/database-restart.test.ts) throws an uncaught TypeError from a
// timer inside the driver, which ends the process, and leaves requests waiting forever:
//   1. connection.js nextWrite(): a small write is flushed on setImmediate; when the socket closed
//      meanwhile it called write on null. Now it drops the bytes and fails what was waiting on them
//      with CONNECTION_CLOSED.
//   2. connection.js closed() and terminate() cancelled that timer but kept its handle and the
//      buffered bytes, so after reconnecting no small write was ever flushed again (and the old
//      bytes would have gone out ahead of the new session's). Now both are cleared.
//   3. connection.js closed(): a close that followed a socket error did not fail the queries still
//      pending, so one written between the 'error' and 'close' events (a ROLLBACK, say) waited
//      forever. Now every close fails what is pending.
//   4. index.js reserve(): a reserved connection that closed was still written to, and release()
//      put it back among the open connections without a socket. Now its queries fail with
//      CONNECTION_CLOSED, queries queued behind a full pipeline fail with the close, and release()
//      leaves a closed connection to the pool's own reconnecting.
// Upstream: porsager/postgres issues 1066, 1154, 1208 (open when this was written, 2026-11-22).
// Each edit must match exactly once; if postgres.js changes, this fails loudly rather than guess.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const MARK = '/* tradie-ops: closed-connection patch */'
const root = fileURLToPath(new URL('../node_modules/postgres/', import.meta.url))

const connectionEdits = [
  {
    find: '  function nextWrite(fn) {\n',
    add: `  function nextWrite(fn) {
    if (!socket) { ${MARK}
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
`,
    times: 1,
  },
  {
    // A close after a socket error skipped this: a query written between the 'error' event (which
    // failed everything pending then) and 'close' was left waiting forever.
    find: '    !hadError && (query || sent.length) && error(',
    add: `    ${MARK} if (query || sent.length) error(`,
    times: 1,
  },
  {
    find: '    clearImmediate(nextWriteTimer)\n',
    add: `    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null ${MARK}
`,
    times: 2,
  },
]

const indexEdits = [
  {
    find: '    sql.release = () => {\n',
    add: `    sql.release = () => {
      if (c.queue !== reserved && c.queue !== full) return ${MARK}
      c.onclose = null
`,
    times: 1,
  },
  {
    find: '    c.reserved.release = true\n',
    add: `    c.reserved.release = true
    c.onclose = e => { while (queue.length) queue.shift().reject(e) } ${MARK}
`,
    times: 1,
  },
  {
    find: '    function handler(q) {\n      c.queue === full\n',
    add: `    function handler(q) {
      if (c.queue !== reserved && c.queue !== full) return q.reject(Errors.connection('CONNECTION_CLOSED', options)) ${MARK}
      c.queue === full
`,
    times: 1,
  },
]

function patch(file, edits) {
  const text = readFileSync(file, 'utf8')
  if (text.includes(MARK)) return 'already patched'
  let patched = text
  for (const { find, add, times } of edits) {
    const found = patched.split(find).length - 1
    if (found !== times) throw new Error(`${file}: expected ${times} of ${JSON.stringify(find)}, found ${found}; check the patch against this postgres.js version`)
    patched = patched.split(find).join(add)
  }
  writeFileSync(file, patched)
  return 'patched'
}

for (const dir of ['src', 'cjs/src', 'cf/src']) {
  for (const [name, edits] of [['connection.js', connectionEdits], ['index.js', indexEdits]]) {
    const file = join(root, dir, name)
    console.log(`postgres.js ${dir}/${name}: ${patch(file, edits)}`)
  }
}
