# Production image for the API and the worker (same image, different command).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The postinstall step patches postgres.js (scripts/patch-postgres.mjs), so it must be here first.
COPY scripts/patch-postgres.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
USER node
EXPOSE 3000
CMD ["npx", "tsx", "src/main-api.ts"]
