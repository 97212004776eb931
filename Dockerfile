# One image per app, built from the repository root:
#   docker build --build-arg APP=content -t shiliu/content .
# APP is gateway, auth, content, social, notify, search or media. The gateway image also carries the built web app,
# which it serves. The media image also carries ffmpeg: its API probes uploads, and the same image runs the video
# worker (`node apps/media/dist/worker.js`).
FROM node:20-bookworm-slim AS build
ARG APP
RUN case "$APP" in gateway|auth|content|social|notify|search|media) ;; \
      *) echo "build with --build-arg APP=<gateway|auth|content|social|notify|search|media> (got '$APP')" >&2; exit 1 ;; esac
WORKDIR /repo
COPY . .
RUN npm install --no-audit --no-fund \
 && if [ "$APP" = gateway ]; then npx nx run-many -t build -p @shiliu/app-gateway @shiliu/web; \
    else npx nx run "@shiliu/app-$APP:build"; fi \
 && npm prune --omit=dev

FROM node:20-bookworm-slim
ARG APP
RUN if [ "$APP" = media ]; then \
      apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*; \
    fi
# Deployment settings: docs/configuration.md, "Node.js flags".
ENV NODE_ENV=production NODE_OPTIONS="--max-semi-space-size=8" APP=$APP
WORKDIR /repo
COPY --from=build /repo /repo
USER node
# Each app listens on its default PORT (gateway 8080, auth 3101 … media 3106). `exec` makes node PID 1, so SIGTERM
# reaches it and the app shuts down gracefully.
CMD ["/bin/sh", "-c", "exec node apps/$APP/dist/main.js"]
