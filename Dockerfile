# ComfyOOM's chat bots in a container, on the current Node LTS. Build: docker build -t comfyoom .
# Run: docker run --env-file .env -v comfyoom-data:/data comfyoom, or see compose.yaml.
#
# Build stage: better-sqlite3 and re2 compile their native parts here (node-gyp: python3, make,
# g++), `npm ci` installs exactly the lockfile, and its postinstall compiles src/ to dist/.
FROM node:24-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
RUN npm ci && npm prune --omit=dev
COPY kb ./kb
COPY migrations ./migrations

# Runtime stage: no compilers. Everything the bot reads at run time is in the image (the kb, the
# migrations, the OCR language data and the chart font, both npm packages), so nothing is
# fetched when it runs; the case database lives in the /data volume.
FROM node:24-bookworm-slim
# MALLOC_MMAP_THRESHOLD_: memory freed after a burst of large logs goes back to the system (scripts/malloc.mjs).
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=1048576 \
    COMFYOOM_DB=/data/comfyoom.db \
    COMFYOOM_HTTP_PORT=9464 \
    COMFYOOM_HTTP_HOST=0.0.0.0 \
    COMFYOOM_LOG_FORMAT=json
WORKDIR /app
# The code stays root's and read-only to the bot; only its data folder is its own.
COPY --from=build /app /app
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 9464
# Ready when every configured platform is connected and the database answers (see /healthz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.COMFYOOM_HTTP_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) is a graceful stop: work in flight finishes, then the bot exits 0 within 5 s.
STOPSIGNAL SIGTERM
# --bots: with no chat token set, say so and exit 2 rather than open the terminal mode, which
# nobody is at in a container.
CMD ["node", "bin/comfyoom.mjs", "start", "--bots"]
