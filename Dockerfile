# Production image of the Tributary service (API + ingestion). Neo4j runs separately (see
# docker-compose.yml); NEO4J_URI must be set, so the embedded Neo4j is never started in a container.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY src ./src
COPY test ./test
COPY bench ./bench
COPY tools/build-web.js ./tools/build-web.js
COPY web ./web
RUN npx tsc -p tsconfig.json && node tools/build-web.js

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=5000
# src/service-flags.ts
ENV NODE_OPTIONS=--max-semi-space-size=64
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY cypher ./cypher
# The ingestion spool (acknowledged events until projected): mount a persistent volume here.
ENV TRIBUTARY_HOME=/var/lib/tributary
RUN mkdir -p /var/lib/tributary && chown node:node /var/lib/tributary
VOLUME /var/lib/tributary
USER node
EXPOSE 5000
HEALTHCHECK --interval=10s --timeout=3s --retries=6 CMD node -e "fetch('http://127.0.0.1:5000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js", "serve"]
