# The platform's image: the API with the web app it serves, and, on Agones, the world agent that
# runs beside each game server (AGONES_TOOL_IMAGE: the same image). README, "Deploying on Kubernetes".
# Build: docker build -t registry.example.com/blockhost/api:1.0.0 .

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/var/lib/blockhost
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The server runs its TypeScript as it is (Node strips the types); the web app comes built.
COPY --from=build /app/src ./src
COPY --from=build /app/locales ./locales
COPY --from=build /app/content ./content
COPY --from=build /app/public ./public
COPY --from=build /app/dist/web ./dist/web
# The world agent reads as user 1000 (the image's `node`); a local driver writes its plain JS here.
RUN mkdir -p /var/lib/blockhost node_modules/.cache && chown node:node /var/lib/blockhost node_modules/.cache
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "src/server/main.ts"]
