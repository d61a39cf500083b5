# Production image for the API and the worker (same image, different command).
# An official Node 24 LTS image (Node 20 reached its end of life in April 2026); slim keeps it small.

# Build stage: every dependency (tsc, the workflow bundler's webpack), `npm run build` into dist/:
# the compiled service and dist/workflow-bundle.js, the workflows bundled once here, not at each start.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The postinstall step patches postgres.js (scripts/patch-postgres.mjs), so it must be here first.
COPY scripts/patch-postgres.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build

# Run stage: production dependencies only (no tsx, no TypeScript) and the built dist/; `node` runs it.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY scripts/patch-postgres.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY scripts/worker-health.mjs ./scripts/
# The code stays root-owned and read-only to the process, which runs as the image's unprivileged user;
# only DATA_DIR (local document storage) is its to write.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Ready means the database answers and Temporal is reachable (GET /readyz); the worker serves no HTTP,
# so docker-compose.yml gives it its own check (scripts/worker-health.mjs).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The worker: `node dist/src/main-worker.js` (docker-compose.yml).
CMD ["node", "dist/src/main-api.js"]
