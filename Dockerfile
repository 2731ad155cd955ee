# airlock image: FROM scratch, one static binary and its applet links.
# The build stage runs exactly what a developer runs: scripts/deps.sh
# (libseccomp and BearSSL from Debian's source packages), then make.
#   docker build -t airlock .        (podman: make images, docs/DEPLOY.md)
# The libraries first, in a stage of their own: a source change rebuilds
# only airlock, not them.
FROM debian:12 AS deps
WORKDIR /src
COPY scripts/deps.sh scripts/packages.list scripts/
RUN sh scripts/deps.sh build/deps

FROM deps AS build
COPY . .
RUN make airlock && mkdir -p /out/bin && cp airlock /out/airlock \
 && ./airlock install-links /out/bin /airlock \
 && mkdir -p /out/tmp && chmod 1777 /out/tmp

FROM scratch
COPY --from=build /out/ /
COPY --from=build /src/build/deps/share/licenses /licenses
ENV PATH=/bin
USER 65534:65534
ENTRYPOINT ["/airlock"]
CMD ["--help"]
