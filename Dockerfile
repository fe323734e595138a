# syntax=docker/dockerfile:1
# Survey Service image. The build stage compiles the TypeScript and packs the package with `npm pack`
# (what `npm install -g` of a release installs: package.json "files"), then installs that package's
# production dependencies from the lock; the final stage holds only that: the packed files and
# node_modules, on the slim Node base (no compiler, no npm cache), plus PostgreSQL's client tools for
# `backup` and `restore`, run as the unprivileged `node` user.
#   docker build -t survey-service .
#   docker run -p 8080:8080 -e SECRET_KEY=... -v survey-data:/data survey-service
ARG NODE_VERSION=22
# The Debian release of both stages, and the major of PostgreSQL's client tools installed from its
# own packages: `survey-service backup`/`restore` run pg_dump/pg_restore, which must be of the
# server's major or newer. deploy/compose.yaml runs postgres:17; Debian 13 (trixie) ships 17.
ARG DEBIAN_RELEASE=trixie
ARG PG_MAJOR=17

FROM node:${NODE_VERSION}-${DEBIAN_RELEASE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --ignore-scripts --pack-destination /tmp
WORKDIR /app
# The packed files alone, then their production dependencies (better-sqlite3's native binding is
# built or fetched here, where the compiler is).
RUN tar -xzf /tmp/survey-service-*.tgz --strip-components=1 \
  && cp /src/package-lock.json . \
  && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && rm package-lock.json

FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim
ARG PG_MAJOR
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATABASE_URL=sqlite:/data/survey-service.db \
  MAIL_DIR=/data/mail \
  EXPORT_DIR=/data/exports \
  UPLOAD_DIR=/data/uploads
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# No curl in the image: Node's own fetch asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "--max-semi-space-size=64", "/app/bin/survey-service.js"]
CMD ["serve"]
