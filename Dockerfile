# Production image for the API and the worker (same image, different command).
# An official Node 24 LTS image (Node 20 reached its end of life in April 2026); slim keeps it small.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The postinstall step patches postgres.js (scripts/patch-postgres.mjs), so it must be here first.
COPY scripts/patch-postgres.mjs ./scripts/
# Dev dependencies stay out: the start command's tsx is a runtime dependency in package.json.
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
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
CMD ["npx", "tsx", "src/main-api.ts"]
