/* lockprefetch.c - approved trees installed ahead of their first lease
 * (lockprefetch.h). */
#include "common/lock/lockprefetch.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/fileio.h"
#include "common/base/log.h"
#include "common/policy/approval.h"

#define SKEW_S 60	/* as a lease's check (lease.c) */

/* A worker's exit status: what became of its token. */
enum outcome { READY, INSTALLED, FAILED, SKIPPED };

static int
token_byte(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

int
lockprefetch_next(const uint8_t *p, size_t len, size_t *off,
    const char **tok, size_t *toklen, size_t *line)
{
	while (*off < len) {
		size_t start = *off, end = start, dots = 0;
		int ok = 1;

		while (end < len && p[end] != '\n')
			end++;
		*off = end < len ? end + 1 : end;
		++*line;
		if (end == start || p[start] == '#')
			continue;
		for (size_t i = start; i < end; i++) {
			ok &= token_byte(p[i]);
			dots += p[i] == '.';
		}
		if (!ok || dots != 1 || end - start > APPROVAL_TOKEN_MAX)
			return -1;
		*tok = (const char *)p + start;
		*toklen = end - start;
		return 1;
	}
	return 0;
}

/* The token's argv as C strings in buf (cap bytes), pointers in argv. */
static int
token_argv(const struct approval *a, char *buf, size_t cap, char **argv)
{
	size_t at = 0;

	for (size_t i = 0; i < a->argc; i++) {
		if (a->argv[i].n + 1 > cap - at)
			return -1;
		memcpy(buf + at, a->argv[i].p, a->argv[i].n);
		buf[at + a->argv[i].n] = '\0';
		argv[i] = buf + at;
		at += a->argv[i].n + 1;
	}
	argv[a->argc] = NULL;
	return 0;
}

/* One token, in a worker: its outcome, logged. */
static enum outcome
one(const struct lockprefetch_cfg *c, const char *tok, size_t toklen,
    size_t line)
{
	static struct approval a;	/* about 15 KiB */
	static char argbuf[APPROVAL_PAYLOAD_MAX + PROTO_ARGC_MAX];
	static char *argv[PROTO_ARGC_MAX + 1], *run[PROTO_ARGC_MAX + 1];
	char id[APPROVAL_ID_TEXT], hex[LOCK_HEX_LEN + 1], bin[PATH_MAX];
	char err[512];
	enum approval_result res;
	enum locktree_result r;
	const char *why;
	int64_t t0 = mono_ms();
	size_t argc;
	int installed;

	if (c->revoked && revocation_reload(c->revoked, &why) != 0)
		log_msg(LOG_WARN, "revocation list unusable, prefetching "
		    "nothing: %s", why);
	res = approval_open(c->key, tok, toklen, &a);
	if (res == APPROVAL_OK)
		res = approval_check_time(&a, (uint64_t)time(NULL), SKEW_S,
		    c->revoked);
	if (res != APPROVAL_OK) {
		log_event(LOG_WARN, "lock prefetch skipped",
		    (struct log_field[]){ LF_STR("file", c->file),
		    LF_NUM("line", line),
		    LF_STR("reason", approval_result_name(res)) }, 3);
		return SKIPPED;
	}
	eckey_id_text(a.token_id, id);
	if (!a.has_lock) {
		log_event(LOG_INFO, "lock prefetch skipped",
		    (struct log_field[]){ LF_STR("file", c->file),
		    LF_NUM("line", line), LF_STR("token", id),
		    LF_STR("reason", "the approval binds no lock") }, 4);
		return SKIPPED;
	}
	lock_hex_encode(a.lock, hex);
	if (token_argv(&a, argbuf, sizeof argbuf, argv) != 0) {
		log_event(LOG_WARN, "lock prefetch skipped",
		    (struct log_field[]){ LF_STR("token", id),
		    LF_STR("reason", "argv too long") }, 2);
		return SKIPPED;
	}
	r = locktree_ready(c->locks, a.lock, a.token_id,
	    a.lock_flags & APPROVAL_LOCK_SCRIPTS, NULL, argv, a.argc, 1,
	    &installed, run, &argc, bin, sizeof bin, err, sizeof err);
	if (r == LOCKTREE_TREE_CHANGED)	/* removed: install it afresh */
		r = locktree_ready(c->locks, a.lock, a.token_id,
		    a.lock_flags & APPROVAL_LOCK_SCRIPTS, NULL, argv, a.argc, 1,
		    &installed, run, &argc, bin, sizeof bin, err, sizeof err);
	if (r != LOCKTREE_OK) {
		log_event(LOG_WARN, "lock prefetch failed",
		    (struct log_field[]){ LF_STR("token", id),
		    LF_STR("lock", hex),
		    LF_STR("check", locktree_result_name(r)),
		    LF_STR("reason", err) }, 4);
		return FAILED;
	}
	log_event(LOG_INFO, "lock prefetched", (struct log_field[]){
	    LF_STR("token", id), LF_STR("lock", hex),
	    LF_NUM("scripts", a.lock_flags & APPROVAL_LOCK_SCRIPTS),
	    LF_NUM("installed", installed),
	    LF_NUM("ms", mono_ms() - t0) }, 5);
	return installed ? INSTALLED : READY;
}

static void
count(struct lockprefetch_counts *n, int status)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : FAILED;

	n->ready += code == READY || code == INSTALLED;
	n->installed += code == INSTALLED;
	n->failed += code == FAILED || code > SKIPPED;
	n->skipped += code == SKIPPED;
}

/* Wait for one worker to end and count it. 0, or -1 when none is left. */
static int
reap_one(struct lockprefetch_counts *n)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, 0)) < 0 && errno == EINTR)
		;
	if (pid < 0)
		return -1;
	count(n, status);
	return 0;
}

int
lockprefetch_run(const struct lockprefetch_cfg *c,
    struct lockprefetch_counts *n, char *err, size_t errcap)
{
	size_t off = 0, line = 0, toklen, running = 0;
	const char *tok;
	uint8_t *text;
	size_t len;
	pid_t parent = getpid();
	int rc;

	memset(n, 0, sizeof *n);
	if (file_read(c->file, LOCKPREFETCH_FILE_MAX, &text, &len) != 0) {
		snprintf(err, errcap, "--prefetch %s: %s", c->file,
		    errno == EFBIG ? "larger than 4 MiB" : strerror(errno));
		return -1;
	}
	while ((rc = lockprefetch_next(text, len, &off, &tok, &toklen,
	    &line)) != 0) {
		pid_t pid;

		if (rc < 0) {
			log_event(LOG_WARN, "lock prefetch skipped",
			    (struct log_field[]){ LF_STR("file", c->file),
			    LF_NUM("line", line),
			    LF_STR("reason", "not a token") }, 3);
			n->skipped++;
			continue;
		}
		if (running == c->jobs && reap_one(n) == 0)
			running--;
		if ((pid = fork()) < 0) {
			log_msg(LOG_ERROR, "lock prefetch: fork: %s",
			    strerror(errno));
			n->failed++;
			continue;
		}
		if (pid == 0) {
			/* this run's end (a runner draining) ends it */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
			    getppid() != parent)
				_exit(FAILED);
			_exit(one(c, tok, toklen, line));
		}
		running++;
	}
	while (running > 0 && reap_one(n) == 0)
		running--;
	free(text);
	return 0;
}
