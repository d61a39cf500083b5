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
//   5. connection.js closed(): the query that was running and the server's error for it (57P01 when
//      the backend was terminated) outlived the socket, so the first query on the reconnected
//      connection was failed with the old backend's error. Now both are forgotten on close.
//   6. connection.js ReadyForQuery and index.js reserve(): reserve() on a pool with no open
//      connection queued itself and also opened a connection for itself, which then handed the
//      connection to whoever was first in the queue (not necessarily it) or, with fetch_types off
//      (src/db/sql.ts), to nobody: reserve() waited forever. Now a reserve() that opens a connection
//      is not queued and the opened connection is handed to it.
//   7. connection.js (Node builds): a socket error failed the pending queries at once, but the socket's
//      'close' (and so the pool's move of the connection to its closed ones) comes on a later turn of
//      the event loop. In between, whoever got the error ran first: a reserved connection released
//      then went back among the open ones and the pool's next query was sent on the dead socket.
//      Now a socket error is reported on 'close', just before the connection leaves the pool.
//   8. connection.js ReadyForQuery: the count of rows received, which places each row in the result,
//      was reset only when a statement completed. A statement that failed after sending rows (an
//      error on a later row, a timeout, a terminated backend) left it standing, so the next query
//      on that connection resolved with holes in front of its rows: `const [row] = await sql...`
//      read undefined (a valid API key answered 401 while backends were being terminated,
//      test/database-restart-process.test.ts). Now every ReadyForQuery, a reconnect's first
//      included, starts the count again.
// Upstream: porsager/postgres issues 1066, 1154, 1208; 1223 (5); 751 (6); 1199 (4, 7); 1119 and
// 1181, pull requests 1120 and 1190 (8) (open when this was written, 2026-11-22 to 2026-11-27).
// Tests that fail without them: edits 1-4 test/database-restart.test.ts, edits 5-8
// test/postgres-patch.test.ts (edit 7 also, depending on timing, the first test of
// test/database-restart.test.ts). Drop an edit once a release fixes it.
// Each edit must match as often as it says, against the file as installed (kept as <file>.orig);
// if postgres.js changes, this fails loudly rather than guess.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const MARK = '/* tradie-ops: closed-connection patch */'
// POSTGRES_PACKAGE_DIR: another copy of the package (test/patch-script.test.ts patches one in a temp folder).
const root = process.env.POSTGRES_PACKAGE_DIR ?? fileURLToPath(new URL('../node_modules/postgres/', import.meta.url))

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
  {
    // 5: a close during startup reconnects with the same initial query; forget the one running then.
    find: '    if (initial)\n      return reconnect()\n',
    add: `    if (initial) {
      query = results = errorResponse = null ${MARK}
      return reconnect()
    }
`,
    times: 1,
  },
  {
    // 5: a close after startup: what was pending has just been failed (edit 3); forget it.
    find: '    closedTime = performance.now()\n',
    add: `    query = results = errorResponse = null ${MARK}
    closedTime = performance.now()
`,
    times: 1,
  },
  {
    // 6: the connection reserve() opened is handed to that reserve() (it is no longer in the queue).
    find: '      initial && !initial.reserve && execute(initial)\n      options.shared.retries = retries = 0\n      initial = null\n',
    add: `      const opened = initial ${MARK}
      options.shared.retries = retries = 0
      initial = null
      opened.reserve ? opened.reserve(connection) : execute(opened)
`,
    times: 1,
  },
  {
    // 6: with fetch_types on, keep the reserve() as the initial query while the types are fetched.
    find: '        initial.reserve && (initial = null)\n',
    add: '',
    times: 1,
  },
  {
    // 8: the row count starts again with every ReadyForQuery, whatever ended the statement before.
    find: '    result = new Result()\n    connectTimer.cancel()\n',
    add: `    result = new Result()
    rows = 0 ${MARK}
    connectTimer.cancel()
`,
    times: 1,
  },
  {
    // 7: the socket error, kept until 'close' (Node always emits 'close' right after 'error').
    find: '    , final = null\n',
    add: `    , final = null
    , socketError = null ${MARK}
`,
    times: 1,
    nodeOnly: true,
  },
  {
    find: "    x.on('error', error)\n",
    add: `    x.on('error', e => socketError = e) ${MARK}
`,
    times: 1,
    nodeOnly: true,
  },
  {
    find: "    socket.on('error', error)\n",
    add: `    socket.on('error', e => socketError = e) ${MARK}
`,
    times: 1,
    nodeOnly: true,
  },
  {
    // 7: reported before anything else here, as the 'error' event did (it also ends a failed connect).
    find: '  async function closed(hadError) {\n',
    add: `  async function closed(hadError) {
    if (socketError) { const e = socketError; socketError = null; error(e) } ${MARK}
`,
    times: 1,
    nodeOnly: true,
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
  {
    // 6: queued or opening a connection for itself, not both.
    find: '        queries.push(query)\n        closed.length && connect(closed.shift(), query)\n',
    add: `        closed.length ? connect(closed.shift(), query) : queries.push(query) ${MARK}
`,
    times: 1,
  },
]

/**
 * A node_modules patched before originals were kept: the file as published, from the package
 * tarball (npm's cache, or the registry).
 */
let unpacked = null
function originalFromPackage(file) {
  if (!unpacked) {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    unpacked = mkdtempSync(join(tmpdir(), 'postgres-pristine-'))
    const tarball = execFileSync('npm', ['pack', `postgres@${version}`, '--silent', '--pack-destination', unpacked], { encoding: 'utf8' }).trim().split('\n').at(-1)
    execFileSync('tar', ['-xzf', join(unpacked, tarball), '-C', unpacked])
  }
  return readFileSync(join(unpacked, 'package', relative(root, file)), 'utf8')
}

/**
 * Applies every edit to the file as npm installed it, kept beside it as <file>.orig the first time:
 * so each run checks each edit against the pristine text (a node_modules patched by an older
 * version of this script gets the edits added since, not a skip because one marker is there).
 */
function patch(file, edits) {
  const pristine = `${file}.orig`
  if (!existsSync(pristine)) {
    const text = readFileSync(file, 'utf8')
    writeFileSync(pristine, text.includes(MARK) ? originalFromPackage(file) : text)
  }
  let patched = readFileSync(pristine, 'utf8')
  for (const { find, add, times, nodeOnly } of edits) {
    // The Cloudflare build's socket can emit 'error' without 'close'; it keeps reporting errors at once.
    if (nodeOnly && file.includes('/cf/')) continue
    const found = patched.split(find).length - 1
    if (found !== times) throw new Error(`${file}: expected ${times} of ${JSON.stringify(find)}, found ${found}; check the patch against this postgres.js version`)
    patched = patched.split(find).join(add)
  }
  const before = readFileSync(file, 'utf8')
  if (before === patched) return 'patched already'
  writeFileSync(file, patched)
  return 'patched'
}

for (const dir of ['src', 'cjs/src', 'cf/src']) {
  for (const [name, edits] of [['connection.js', connectionEdits], ['index.js', indexEdits]]) {
    const file = join(root, dir, name)
    console.log(`postgres.js ${dir}/${name}: ${patch(file, edits)}`)
  }
}
if (unpacked) rmSync(unpacked, { recursive: true, force: true })
