# airlock image: FROM scratch, one static binary and its applet links.
# The build stage runs exactly what a developer runs: scripts/deps.sh via
# make. (No Docker engine runs in this project's CI; see README.)
FROM debian:12 AS build
WORKDIR /src
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
