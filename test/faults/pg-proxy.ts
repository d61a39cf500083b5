// A TCP proxy in front of the test Postgres, through which the service's processes reach their
// database. restart() is what a Postgres restart looks like to them: every open connection is cut,
// new ones are refused (ECONNREFUSED) for the outage, then accepted again on the same address. The
// real server is shared with other runs on this machine, so it is not itself restarted.
import net from 'node:net'

export interface PgProxy {
  /** The database URL with the proxy's host and port. */
  url(databaseUrl: string): string
  /** Cuts every connection, refuses new ones for outageMs, then listens again. */
  restart(outageMs: number): Promise<{ cut: number }>
  close(): Promise<void>
}

export async function startPgProxy(target = { host: '127.0.0.1', port: 5432 }): Promise<PgProxy> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {}) // a cut is the point; both ends are destroyed below
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  const listen = () => new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  let port = 0
  await listen()
  port = (server.address() as net.AddressInfo).port
  const cutAll = () => {
    const cut = sockets.size / 2
    for (const s of sockets) s.destroy()
    return cut
  }
  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl)
      url.host = `127.0.0.1:${port}`
      return url.toString()
    },
    async restart(outageMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      const cut = cutAll()
      await closed
      await new Promise((r) => setTimeout(r, outageMs))
      await listen()
      return { cut }
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      cutAll()
      await closed
    },
  }
}
