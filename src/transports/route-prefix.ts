// Routers reached only by the requests they can answer. @koa/router tests every one of its routes
// against every request that reaches it; mounted in a row, each router paid that for every call
// (GET /leads went through six routers' matching). A path prefix or the first path segment decides
// in one comparison which router, if any, looks at a request.
import type Router from '@koa/router'
import type { Middleware } from 'koa'

/**
 * A router's routes and its 405/501 answers, as one middleware (what app.use(routes) then
 * app.use(allowedMethods) did). Not thrown: the router then sets the Allow header RFC 9110 asks
 * of a 405, and app.ts gives the answer the error body.
 */
export function routerMiddleware(router: Router): Middleware {
  const routes = router.routes() as unknown as Middleware
  const allowed = router.allowedMethods() as unknown as Middleware
  return (ctx, next) => routes(ctx, () => allowed(ctx, next))
}

// Case-insensitive, as @koa/router matches by default: /API/V1/Leads reaches the same routes.
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

/**
 * Routers each mounted at a path prefix: a request goes to the router of the longest prefix it is
 * at or below (one router; a shorter prefix's routes could not match it), the rest straight on.
 */
export function byPrefix(routes: [prefix: string, router: Router][]): Middleware {
  const mounted = routes
    .map(([prefix, router]) => [prefix.toLowerCase(), routerMiddleware(router)] as const)
    .sort((a, b) => b[0].length - a[0].length)
  return (ctx, next) => {
    const path = ctx.path.toLowerCase()
    const found = mounted.find(([prefix]) => under(path, prefix))
    return found ? found[1](ctx, next) : next()
  }
}

/**
 * Routers keyed by the first path segment after prefix ('/api/v1/leads/x' -> 'leads'): a request
 * reaches the one router holding the routes that could match it, or none.
 */
export function bySegment(prefix: string, routers: Map<string, Router>): Middleware {
  prefix = prefix.toLowerCase()
  const mounted = new Map([...routers].map(([segment, router]) => [segment, routerMiddleware(router)]))
  return (ctx, next) => {
    const path = ctx.path.toLowerCase()
    if (!under(path, prefix)) return next()
    const end = path.indexOf('/', prefix.length + 1)
    const route = mounted.get(path.slice(prefix.length + 1, end === -1 ? undefined : end))
    return route ? route(ctx, next) : next()
  }
}

/** The first segment of a route path: '/leads/:id' -> 'leads'. */
export function firstSegment(path: string): string {
  return (path.split('/')[1] ?? '').toLowerCase()
}
