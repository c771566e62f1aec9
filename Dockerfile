# The Kino image: the render API (`kino serve`, the default command) and the render workers
# (`kino worker`) of a scaled-out deployment (compose.yaml, deploy/kubernetes/).
#
#   docker build -t kino .
#   docker run --rm kino doctor
#
# Debian 12's ffmpeg (5.1, with ffprobe and every encoder Kino uses) is the one Kino prefers and CI
# tests with. The fonts Kino draws text with, the fallback chain for glyphs a family lacks included,
# come from npm and are the only ones text reads; Debian's DejaVu is kept for SVG images naming fonts.
FROM node:24-bookworm-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates ffmpeg fonts-dejavu-core tini \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
# The CLI's prebuilt bundle (node_modules/.cache/kino/cli), made now so that no container makes it.
RUN node main/launcher/cli-bundle.mjs --build

# DATA_DIR: scratch space (the jobs live in Redis, the files in S3). KINO_CACHE_DIR: Node's compile
# cache and downloaded media. RENDER_PROJECT: mount or copy your own project and point here.
ENV HOST=0.0.0.0 \
  PORT=8080 \
  DATA_DIR=/var/lib/kino \
  KINO_CACHE_DIR=/var/cache/kino \
  RENDER_PROJECT=/app/examples
RUN mkdir -p /var/lib/kino /var/cache/kino && chown node:node /var/lib/kino /var/cache/kino
USER node
EXPOSE 8080

# tini reaps the render processes' children and hands SIGTERM to Kino alone, which then drains: the
# API stops taking work, a worker finishes its render or hands it back to the queue.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/main/cli/kino.mjs"]
CMD ["serve"]
