/* probe.c - a health check for images without curl: GET one URL of a
 * service's --metrics endpoint, exit 0 on a 200 answer and 1 on anything
 * else (refused, timed out, another status), as Docker's HEALTHCHECK and
 * Kubernetes exec probes expect. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/wire/netaddr.h"
#include "common/base/xwrap.h"

#define PROBE_UNHEALTHY 1
#define ANSWER_MAX 65536

static const char usage[] =
"usage: airlock probe [--timeout DUR] http://HOST:PORT/PATH\n"
"\n"
"GET the URL (a runner's or sandbox's --metrics endpoint: /healthz,\n"
"/readyz or /metrics) and exit 0 when it answers 200, 1 otherwise\n"
"(connection refused, no answer within --timeout (default 2s), another\n"
"status). For Docker HEALTHCHECK in a FROM scratch image:\n"
"  HEALTHCHECK CMD [\"/airlock\", \"probe\", \"http://127.0.0.1:9100/readyz\"]\n"
"\n"
"Exit status: 0 healthy, 1 not, 64 usage.\n";

int probe_main(int argc, char **argv);

static void
on_alarm(int sig)
{
	(void)sig;
	_exit(PROBE_UNHEALTHY);
}

/* http://HOST:PORT/PATH into "HOST:PORT" and "/PATH". */
static int
split_url(const char *url, char *hostport, size_t hcap, const char **path)
{
	const char *hp = url + 7, *slash;

	if (strncmp(url, "http://", 7) != 0)
		return -1;
	slash = strchr(hp, '/');
	if (!slash || slash == hp || (size_t)(slash - hp) >= hcap ||
	    strlen(slash) > 256)
		return -1;
	memcpy(hostport, hp, (size_t)(slash - hp));
	hostport[slash - hp] = '\0';
	*path = slash;
	for (const char *c = slash; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f)
			return -1;
	return 0;
}

int
probe_main(int argc, char **argv)
{
	static char answer[ANSWER_MAX];
	char hostport[300], err[256], req[512];
	const char *path, *url = NULL;
	struct netaddr a;
	uint64_t timeout_ms = 2000;
	size_t got = 0;
	ssize_t n;
	int fd, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
			if (cli_duration_ms(argv[++i], &timeout_ms) != 0 ||
			    timeout_ms == 0 || timeout_ms > 600000)
				die(EXIT_USAGE, "--timeout: a duration from 1ms to "
				    "10m, e.g. 2s");
		} else if (!url && argv[i][0] != '-') {
			url = argv[i];
		} else {
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (!url || split_url(url, hostport, sizeof hostport, &path) != 0)
		die(EXIT_USAGE, "give one URL of the form http://HOST:PORT/PATH");
	if (netaddr_parse(&a, hostport, err, sizeof err) != 0 || a.is_unix)
		die(EXIT_USAGE, "%s: %s", url, a.is_unix ? "not HOST:PORT" : err);
	signal(SIGALRM, on_alarm);
	alarm((unsigned)((timeout_ms + 999) / 1000));
	if ((fd = netaddr_connect(&a, err, sizeof err)) < 0) {
		fprintf(stderr, "probe: %s\n", err);
		return PROBE_UNHEALTHY;
	}
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\n"
	    "Connection: close\r\n\r\n", path, hostport);
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req))
		return PROBE_UNHEALTHY;
	while (got < sizeof answer - 1 &&
	    (n = recv(fd, answer + got, sizeof answer - 1 - got, 0)) > 0)
		got += (size_t)n;
	close(fd);
	answer[got] = '\0';
	if (got >= 13 && (memcmp(answer, "HTTP/1.1 200 ", 13) == 0 ||
	    memcmp(answer, "HTTP/1.0 200 ", 13) == 0))
		return EXIT_OK;
	fprintf(stderr, "probe: %s: %.*s\n", url,
	    (int)strcspn(answer, "\r\n"), got ? answer : "no answer");
	return PROBE_UNHEALTHY;
}
