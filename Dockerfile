# Multi-stage build: compile with the committed .sqlx metadata (no database needed), run slim.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
ENV SQLX_OFFLINE=true
RUN cargo build --release --locked --bin arbiter

FROM debian:bookworm-slim
RUN useradd --system --home /var/lib/arbiter arbiter && mkdir -p /var/lib/arbiter && chown arbiter /var/lib/arbiter
COPY --from=build /src/target/release/arbiter /usr/local/bin/arbiter
COPY --from=build /src/static /usr/share/arbiter/static
ENV ARBITER_STATIC_DIR=/usr/share/arbiter/static ARBITER_BIND=0.0.0.0:8080 ARBITER_DATA_DIR=/var/lib/arbiter
USER arbiter
EXPOSE 8080
ENTRYPOINT ["arbiter"]
CMD ["serve"]
