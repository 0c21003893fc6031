# pix-account-service: production image (Node 24, the active LTS).
#   docker build -t pix-account-service .
# Runs `node dist/main.js` as the unprivileged `node` user; configuration comes from the
# environment (README, "Deploying"). deploy/compose.yaml runs PostgreSQL, a one-shot migration, two
# instances and nginx with mTLS in front.

# 1. Build: every dependency, compile TypeScript to dist/, then drop the development dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# 2. Run: only the compiled service and its production dependencies.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    MODE=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The code is root-owned and read-only to the service; it writes nothing beside it (PostgreSQL holds
# the state; DATA_DIR is only for the embedded database, not used in production).
USER node
EXPOSE 3000
# Liveness over plain HTTP on the container's port (TLS is terminated by the front proxy here; an
# instance serving TLS itself needs its own probe).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/main.js"]
