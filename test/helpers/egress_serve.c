/* egress_serve.c - the egress proxy alone, for bench/egress.sh: listen on
 * 127.0.0.1:PORT and serve it with the allow list LIST under the proxy's
 * seccomp filter (as egress_proxy_run does for a lease, without the
 * namespace and the change of uid). Prints "ready" once listening.
 * usage: egress_serve PORT LIST */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "common/egress/egress_proxy.h"
#include "common/base/log.h"

int
main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	static struct egress_allow a;
	struct sock_fprog filter;
	char err[256];
	int fd;

	if (argc != 3)
		return 2;
	log_init("egress_serve");
	log_set_level(LOG_ERROR);
	if (egress_allow_add(&a, argv[2], strlen(argv[2]), err, sizeof err) ||
	    egress_proxy_filter(&filter, err, sizeof err)) {
		fprintf(stderr, "egress_serve: %s\n", err);
		return 2;
	}
	sin.sin_port = htons((uint16_t)atoi(argv[1]));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, 128) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("egress_serve");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	egress_proxy_run(fd, &filter, &a, "bench");
	return 1;
}
