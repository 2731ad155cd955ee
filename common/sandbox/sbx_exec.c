/* sbx_exec.c - one execution: jail, command, event loop, result. */
#include "common/sandbox/sbx_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/sandbox/sbx_jwarm.h"
#include "common/sandbox/sbx_stage.h"
#include "common/sandbox/sbx_warm.h"
#include "common/jail/spawn.h"

#define TICK_MS 5		/* cgroup counters are read this often */
#define DRAIN_MS 1000		/* after the end: pipes must reach EOF */
#define CHUNK 65536

uint64_t
sbx_java_heap(uint64_t memory)
{
	uint64_t half = memory / 2, rest = memory > (64u << 20) ?
	    memory - (64u << 20) : 0;
	uint64_t heap = rest > half ? rest : half;

	return heap < (16u << 20) ? (16u << 20) : heap;
}

struct run {
	const struct sbx_exec_env *env;
	const struct sbx_job *job;
	const struct sbx_output *out;
	struct sbx_result *res;
	struct jail_limits lim;		/* this job's (job_limits) */
	struct jail_lease lease;
	int lease_open;
	struct spawn_child ch;
	int spawned;
	int tfd_deadline, tfd_tick;
	int64_t t_start, t_end;
	int stop;			/* enum sbx_reason, or -1 */
	int abandoned;
	int exited, wstatus;
	int rest_killed;		/* after a normal exit, once */
	int saved_cwd;			/* jail none: our cwd during spawn */
	/* stdin: a warm slot's record of the files, then the input */
	const uint8_t *in_seg[2];
	size_t in_len[2], in_i, in_off;
	uint8_t *record;		/* owned */
	uint64_t cpu_base;		/* usec the slot used before the call */
	int peak_kept;			/* a warm Java call whose slot's peak
					 * could not be restarted (v2) */
	uint64_t peak_base;		/* ... that peak at the call's start */
	struct jail_file jf[JAIL_FILES_MAX];
	struct sbx_job slot_job;	/* a warm slot's: no files, no input */
	struct sbx_result slot_res;	/* what preparing it said */
	int in_open, open[3];		/* stdin; stdout, stderr by fd 1, 2 */
	uint64_t bytes[3];
	/* Java stage record */
	int stage_pending;
	struct sbx_stage stage;
	uint8_t buf[CHUNK];		/* last: run_init leaves it as it is */
};

static void
set_detail(struct run *r, const char *s)
{
	sbx_detail_set(r->res->detail, sizeof r->res->detail,
	    (const uint8_t *)s, strlen(s));
}

static int
arm_deadline(struct run *r, int64_t at_ms)
{
	struct itimerspec its;

	memset(&its, 0, sizeof its);
	its.it_value.tv_sec = at_ms / 1000;
	its.it_value.tv_nsec = (at_ms % 1000) * 1000000;
	return timerfd_settime(r->tfd_deadline, TFD_TIMER_ABSTIME, &its, NULL);
}

/* Stop the execution for reason (the first one wins) and kill the jail:
 * its cgroup, its uid, its pid namespace. */
static void
stop(struct run *r, int reason)
{
	int found = 0, st = 0;

	if (r->stop < 0)
		r->stop = reason;
	if (r->spawned && r->lease_open) {
		jail_lease_kill(&r->lease, r->ch.pid, &st, &found);
		if (found && !r->exited) {
			/* the end of the tool's time: when it is dead, not
			 * when we decided to kill it */
			r->exited = 1;
			r->wstatus = st;
			r->t_end = mono_ms();
		}
	}
}

/* Tool bytes of one stream, within its cap. */
static void
deliver(struct run *r, int stream, const uint8_t *p, size_t n)
{
	uint64_t cap = r->job->lim.output, room = cap - r->bytes[stream];
	size_t take = n > room ? (size_t)room : n;

	if (take > 0) {
		r->bytes[stream] += take;
		if (r->out->emit(r->out->ctx, stream, p, take) != 0) {
			r->abandoned = 1;
			stop(r, SBX_EXITED);
		}
	}
	if (take < n) {
		r->res->flags |= stream == 1 ? SBX_F_STDOUT_TRUNCATED :
		    SBX_F_STDERR_TRUNCATED;
		stop(r, SBX_OUTPUT);
	}
}

/* Give stdout bytes to the stage decoder (common/sbx_stage) and act on
 * its verdict; returns how many bytes were the record's. */
static size_t
stage_take(struct run *r, const uint8_t *p, size_t n)
{
	size_t used;
	enum sbx_stage_rc rc = sbx_stage_feed(&r->stage, p, n, &used);

	if (rc == SBX_STAGE_NEED)
		return used;
	r->stage_pending = 0;
	if (rc == SBX_STAGE_BAD) {
		set_detail(r, "the Java stage wrote a malformed record");
		stop(r, SBX_JAIL_FAILED);
		return n;	/* the rest of this read is discarded */
	}
	sbx_detail_set(r->res->detail, sizeof r->res->detail, r->stage.detail,
	    r->stage.len);
	switch (r->stage.status) {
	case SBX_STAGE_OK:
		r->res->detail[0] = '\0';
		break;
	case SBX_STAGE_COMPILE:
		stop(r, SBX_COMPILE_FAILED);
		break;
	case SBX_STAGE_VERIFY:
		stop(r, SBX_VERIFY_FAILED);
		break;
	default:
		stop(r, SBX_JAIL_FAILED);
		break;
	}
	return used;
}

/* The tool is stopped (a limit, or abandoned): what it wrote is read and
 * dropped, never held. */
static int
stopped(const struct run *r)
{
	return r->stop >= 0;
}

/* Read what one output pipe has, at most what the receiver takes now;
 * closes it at EOF. */
static void
pump_out(struct run *r, int stream)
{
	int fd = stream == 1 ? r->ch.out : r->ch.err;
	size_t room = stopped(r) ? sizeof r->buf : r->out->room(r->out->ctx);
	ssize_t n;

	if (room == 0)
		return;
	do
		n = read(fd, r->buf, room < sizeof r->buf ? room :
		    sizeof r->buf);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return;
	if (n <= 0) {
		r->open[stream] = 0;
		return;
	}
	if (stopped(r))
		return;		/* what remains is discarded */
	if (stream == 1 && r->stage_pending) {
		size_t used = stage_take(r, r->buf, (size_t)n);

		if (used < (size_t)n && !r->stage_pending && r->stop < 0)
			deliver(r, 1, r->buf + used, (size_t)n - used);
		return;
	}
	deliver(r, stream, r->buf, (size_t)n);
}

static void
pump_in(struct run *r)
{
	ssize_t n;

	while (r->in_i < 2 && r->in_off == r->in_len[r->in_i]) {
		r->in_i++;
		r->in_off = 0;
	}
	if (r->in_i < 2) {
		do
			n = write(r->ch.in, r->in_seg[r->in_i] + r->in_off,
			    r->in_len[r->in_i] - r->in_off);
		while (n < 0 && errno == EINTR);
		if (n > 0)
			r->in_off += (size_t)n;
		else if (n < 0 && errno != EAGAIN)
			r->in_i = 2;	/* EPIPE: the rest is not read */
	}
	while (r->in_i < 2 && r->in_off == r->in_len[r->in_i]) {
		r->in_i++;
		r->in_off = 0;
	}
	if (r->in_i == 2) {
		close(r->ch.in);
		r->in_open = 0;
	}
}

/* The cgroup's counters: CPU, OOM kills, refused forks. The CPU limit
 * covers the whole execution: the Java compiler's time is the tenant's
 * too. */
static void
tick(struct run *r)
{
	struct jail_stats st;
	uint64_t tick_count;

	(void)!read(r->tfd_tick, &tick_count, sizeof tick_count);
	if (r->stop >= 0 || r->exited)
		return;
	jail_lease_stats(&r->lease, &st);
	if (st.oom_kills > 0)
		stop(r, SBX_MEMORY);
	else if (st.pids_max_hits > 0)
		stop(r, SBX_PIDS);
	else if (st.disk_full)
		stop(r, SBX_DISK);
	else if (st.has_cpu && st.cpu_usec - r->cpu_base >
	    r->job->lim.cpu_ms * 1000) {
		if (r->stage_pending)
			set_detail(r, "the Java compiler ran past the CPU "
			    "limit");
		stop(r, SBX_CPU);
	}
}

static void
on_exit_seen(struct run *r)
{
	int st;
	pid_t got;

	do
		got = waitpid(r->ch.pid, &st, WNOHANG);
	while (got < 0 && errno == EINTR);
	if (got == r->ch.pid) {
		r->exited = 1;
		r->wstatus = st;
		if (r->stop < 0)
			r->t_end = mono_ms();
	}
}

/* After the end, what the tool wrote before it is still forwarded while
 * the receiver takes it: DRAIN_MS from the end or from the last bytes
 * forwarded, never past the tool's deadline plus DRAIN_MS. What is left
 * then is marked truncated. */
static int64_t
drain_bound(const struct run *r, int64_t last_progress)
{
	int64_t cap = r->t_start + (int64_t)r->job->lim.timeout_ms + DRAIN_MS;
	int64_t until = last_progress + DRAIN_MS;

	return until < cap ? until : cap;
}

/* The loop: until the child is gone and both pipes are at EOF. */
static void
loop(struct run *r)
{
	int64_t end_seen = -1, progress = -1;

	while (!r->exited || r->open[1] || r->open[2]) {
		struct pollfd pf[8];
		int slot_in = -1, slot_out = -1, slot_err = -1, slot_rx = -1,
		    slot_sig = -1, timeout = -1;
		int busy = !stopped(r) && r->out->room(r->out->ctx) == 0;
		uint64_t before = r->bytes[1] + r->bytes[2];
		nfds_t n = 0;

		if (r->exited || stopped(r)) {
			/* the end: the pipes must close soon (everything
			 * holding them is dead); never wait forever */
			int64_t now = mono_ms(), until;

			if (end_seen < 0)
				end_seen = progress = now;
			until = stopped(r) ? end_seen + DRAIN_MS :
			    drain_bound(r, progress);
			if (now >= until) {
				for (int s = 1; s <= 2 && !stopped(r); s++)
					if (r->open[s])
						r->res->flags |= s == 1 ?
						    SBX_F_STDOUT_TRUNCATED :
						    SBX_F_STDERR_TRUNCATED;
				break;
			}
			timeout = (int)(until - now);
		}
		pf[n++] = (struct pollfd){ r->exited ? -1 : r->ch.pidfd, POLLIN,
		    0 };
		pf[n++] = (struct pollfd){ r->tfd_deadline, POLLIN, 0 };
		pf[n++] = (struct pollfd){ r->tfd_tick, POLLIN, 0 };
		if (r->in_open) {
			slot_in = (int)n;
			pf[n++] = (struct pollfd){ r->ch.in, POLLOUT, 0 };
		}
		if (r->open[1] && !busy) {
			slot_out = (int)n;
			pf[n++] = (struct pollfd){ r->ch.out, POLLIN, 0 };
		}
		if (r->open[2] && !busy) {
			slot_err = (int)n;
			pf[n++] = (struct pollfd){ r->ch.err, POLLIN, 0 };
		}
		if (r->out->fd >= 0) {
			slot_rx = (int)n;
			pf[n++] = (struct pollfd){ r->out->fd,
			    r->out->events(r->out->ctx), 0 };
		}
		if (r->env->sigfd >= 0) {
			slot_sig = (int)n;
			pf[n++] = (struct pollfd){ r->env->sigfd, POLLIN, 0 };
		}
		if (poll(pf, n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[0].revents)
			on_exit_seen(r);
		if (pf[1].revents & POLLIN) {
			uint64_t x;

			(void)!read(r->tfd_deadline, &x, sizeof x);
			if (r->stage_pending)
				set_detail(r, "the Java compiler ran past the "
				    "time limit");
			if (!r->exited)
				stop(r, SBX_TIMEOUT);
		}
		if (pf[2].revents & POLLIN)
			tick(r);
		if (slot_sig >= 0 && (pf[slot_sig].revents & POLLIN)) {
			struct signalfd_siginfo si;

			/* the service's drain ran out (or the user of run
			 * stopped it): the tool ends, its result still goes
			 * out, with reason shutdown */
			(void)!read(r->env->sigfd, &si, sizeof si);
			if (!r->exited) {
				set_detail(r, "stopped by a signal to the "
				    "sandbox: the service is shutting down");
				stop(r, SBX_SHUTDOWN);
			}
		}
		if (slot_rx >= 0 && pf[slot_rx].revents &&
		    r->out->ready(r->out->ctx, pf[slot_rx].revents) != 0) {
			r->abandoned = 1;
			stop(r, SBX_EXITED);
		}
		if (slot_in >= 0 && pf[slot_in].revents)
			pump_in(r);
		if (slot_out >= 0 && pf[slot_out].revents)
			pump_out(r, 1);
		if (slot_err >= 0 && pf[slot_err].revents)
			pump_out(r, 2);
		if (r->bytes[1] + r->bytes[2] != before)
			progress = mono_ms();
		if (r->exited && r->stop < 0 && !r->rest_killed) {
			/* the main process is gone: nothing of the jail may
			 * outlive it (reason stays exited) */
			int found, st;

			jail_lease_kill(&r->lease, r->ch.pid, &st, &found);
			r->rest_killed = 1;
		}
	}
}

/* Compose the result from what the loop saw and the cgroup counters. */
static void
finish(struct run *r)
{
	struct sbx_result *res = r->res;
	struct jail_stats st;
	struct rusage ru;

	jail_lease_stats(&r->lease, &st);
	if (!r->t_end)
		r->t_end = mono_ms();
	/* the whole execution, the Java compiler included */
	res->wall_ms = r->t_end > r->t_start ? (uint64_t)(r->t_end -
	    r->t_start) : 0;
	if (st.has_cpu) {
		res->cpu_ms = (st.cpu_usec - r->cpu_base) / 1000;
		res->flags |= SBX_F_CPU_CGROUP;
	} else if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		uint64_t us = (uint64_t)ru.ru_utime.tv_sec * 1000000 +
		    (uint64_t)ru.ru_utime.tv_usec +
		    (uint64_t)ru.ru_stime.tv_sec * 1000000 +
		    (uint64_t)ru.ru_stime.tv_usec;

		res->cpu_ms = us / 1000;
	}
	if (st.has_memory) {
		res->peak_memory = st.peak_memory;
		res->flags |= SBX_F_MEMORY_CGROUP;
		/* grown: the maximum came during the call, its own; not
		 * grown: the call stayed below the warm-up's, no more known */
		if (r->peak_kept && st.peak_memory <= r->peak_base)
			res->flags |= SBX_F_PEAK_UPPER_BOUND;
	} else if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		res->peak_memory = (uint64_t)ru.ru_maxrss * 1024;
	}
	if (st.has_pids)
		res->flags |= SBX_F_PIDS_CGROUP;
	res->stdout_bytes = r->bytes[1];
	res->stderr_bytes = r->bytes[2];
	if (r->exited && WIFEXITED(r->wstatus)) {
		res->kind = SBX_KIND_CODE;
		res->status = (uint8_t)WEXITSTATUS(r->wstatus);
	} else if (r->exited && WIFSIGNALED(r->wstatus)) {
		res->kind = SBX_KIND_SIGNAL;
		res->status = (uint8_t)WTERMSIG(r->wstatus);
	} else {
		res->kind = SBX_KIND_NONE;
	}
	if (r->stop >= 0 && r->stop != SBX_EXITED) {
		res->reason = (uint8_t)r->stop;
	} else if (st.oom_kills > 0) {
		res->reason = SBX_MEMORY;	/* killed between two ticks */
	} else if (st.pids_max_hits > 0) {
		res->reason = SBX_PIDS;
	} else if (st.disk_full) {
		res->reason = SBX_DISK;		/* full when the tool ended */
	} else if (r->stage_pending && r->job->lang == SBX_LANG_JAVA) {
		res->reason = SBX_JAIL_FAILED;
		set_detail(r, "the Java stage ended before its record");
	} else if (res->kind == SBX_KIND_SIGNAL && res->status == SIGXCPU) {
		res->reason = SBX_CPU;		/* RLIMIT_CPU, no cgroup */
	} else if (r->job->lang == SBX_LANG_JAVA && res->kind ==
	    SBX_KIND_SIGNAL && res->status == SIGKILL) {
		/* heap (-Xmx) exhausted: the JVM's -XX:OnOutOfMemoryError
		 * killed it (sbx_java.c); nothing else of ours or the
		 * kernel's (a stop, an OOM kill: above) sent that SIGKILL */
		res->reason = SBX_MEMORY;
	} else {
		res->reason = SBX_EXITED;
	}
	if (res->reason == SBX_VERIFY_FAILED || res->reason ==
	    SBX_COMPILE_FAILED || res->reason == SBX_JAIL_FAILED)
		res->kind = SBX_KIND_NONE;
}

/* Jail mode none (development, and the A/B tests that switch the jail
 * off) makes no work directory of its own: write the files into the
 * lease's directory and start the child there, as ns mode would. */
static int
none_prepare(struct run *r, char *err, size_t errlen)
{
	r->saved_cwd = -1;
	if (r->env->jail->cfg.mode != JAIL_NONE)
		return 0;
	for (size_t i = 0; i < r->lease.nfiles; i++) {
		const struct jail_file *f = &r->lease.files[i];
		int dfd = open(r->lease.workdir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC), fd = -1;
		size_t off = 0;

		if (dfd >= 0)
			fd = openat(dfd, f->name, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, f->mode & 0777);
		if (dfd >= 0)
			close(dfd);
		if (fd < 0) {
			snprintf(err, errlen, "cannot write %s: %s", f->name,
			    strerror(errno));
			return -1;
		}
		while (off < f->len) {
			ssize_t w = write(fd, (const char *)f->data + off,
			    f->len - off);

			if (w <= 0 && errno != EINTR) {
				close(fd);
				snprintf(err, errlen, "cannot write %s",
				    f->name);
				return -1;
			}
			if (w > 0)
				off += (size_t)w;
		}
		close(fd);
	}
	r->saved_cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->saved_cwd < 0 || chdir(r->lease.workdir) != 0) {
		snprintf(err, errlen, "cannot enter %.200s: %s", r->lease.workdir,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
none_restore(struct run *r)
{
	if (r->saved_cwd >= 0) {
		(void)!fchdir(r->saved_cwd);
		close(r->saved_cwd);
		r->saved_cwd = -1;
	}
}

/* argv and envp of the job, in storage of the caller's. */
struct cmd {
	char *argv[64 + 2 * SBX_ARGS_MAX];
	char *envp[8];
	char heap[32], home[PATH_MAX + 8], tmp[PATH_MAX + 8];
	char javac[PATH_MAX], java[PATH_MAX];
};

static int
build_cmd(struct run *r, struct cmd *c)
{
	const struct sbx_job *j = r->job;
	size_t a = 0;

	snprintf(c->home, sizeof c->home, "HOME=%s", r->lease.home);
	snprintf(c->tmp, sizeof c->tmp, "TMPDIR=%s", r->lease.tmpdir);
	c->envp[0] = "PATH=/usr/local/bin:/usr/bin:/bin";
	c->envp[1] = c->home;
	c->envp[2] = c->tmp;
	c->envp[3] = "LANG=C.UTF-8";
	c->envp[4] = NULL;
	if (j->nargs > SBX_ARGS_MAX)
		return -1;
	switch (j->lang) {
	case SBX_LANG_PYTHON:
		/* -I but for -P: no PYTHON* variables (-E), no user site
		 * (-s), and the script's own directory first on sys.path, so
		 * a tool's other files import (import helper) */
		c->argv[a++] = (char *)r->env->python;
		c->argv[a++] = "-E";
		c->argv[a++] = "-s";
		if (j->nfiles == 0) {	/* a warm slot: the loader waits */
			c->argv[a++] = "-c";
			c->argv[a++] = (char *)sbx_warm_python_loader;
		} else {
			/* words after the script are sys.argv[1:], never
			 * the interpreter's options */
			c->argv[a++] = (char *)j->files[0].name;
			for (size_t i = 0; i < j->nargs; i++)
				c->argv[a++] = j->args[i];
		}
		break;
	case SBX_LANG_JAVA:
		if (j->nfiles > 40)
			return -1;
		snprintf(c->heap, sizeof c->heap, "%llu",
		    (unsigned long long)sbx_java_heap(j->lim.memory));
		c->argv[a++] = (char *)r->env->self_exe;
		c->argv[a++] = "sandbox";
		c->argv[a++] = "_java-stage";
		c->argv[a++] = "--java-home";
		c->argv[a++] = (char *)r->env->java_home;
		c->argv[a++] = "--heap";
		c->argv[a++] = c->heap;
		if (r->env->java_unconfined)
			c->argv[a++] = "--unconfined";
		if (r->env->deny_text) {
			c->argv[a++] = "--java-denylist";
			c->argv[a++] = ".airlock-java-deny";
		}
		if (j->nfiles == 0)	/* a warm slot: the JVM waits */
			c->argv[a++] = "--warm";
		for (size_t i = 0; i < j->nargs; i++) {
			c->argv[a++] = "--arg";
			c->argv[a++] = j->args[i];
		}
		c->argv[a++] = "--";
		for (size_t i = 0; i < j->nfiles; i++)
			c->argv[a++] = (char *)j->files[i].name;
		break;
	case SBX_LANG_EXEC:
		for (size_t i = 0; j->exec_argv && j->exec_argv[i]; i++) {
			if (a == 64)	/* the rest is the tool's words' */
				return -1;
			c->argv[a++] = j->exec_argv[i];
		}
		if (a == 0)
			return -1;
		for (size_t i = 0; i < j->nargs; i++)
			c->argv[a++] = j->args[i];
		break;
	default:
		return -1;
	}
	c->argv[a] = NULL;
	return 0;
}

/* This job's limits, the service jail's with its budget's: the cgroup
 * (memory, pids), the rlimit backstops (CPU seconds, processes of its
 * uid) and the disk. The lease takes them as its own (rq.limits), so the
 * jail itself (75 KB) is not copied for each call. */
static void
job_limits(struct run *r)
{
	const struct sbx_limits *l = &r->job->lim;
	struct jail_limits *jl = &r->lim;

	*jl = r->env->jail->cfg.limits;
	if (!r->env->use_cgroup_limits)
		return;
	jl->memory = l->memory;
	jl->pids = l->pids;
	/* RLIMIT_NPROC is the backstop without a pids cgroup; with one it
	 * must not bind first, or a fork bomb would look like a tool that
	 * failed to fork (the cgroup's refusals are what names the reason) */
	jl->nproc = r->env->jail->cg.kind != CGROUP_NONE ? l->pids + 16 :
	    l->pids;
	jl->cpu_seconds = sbx_job_cpu_seconds(l);
	if (r->job->lang == SBX_LANG_JAVA && r->job->nfiles == 0)
		jl->cpu_seconds += SBX_JWARM_CPU_S;	/* the JVM's warm-up */
	jl->disk = r->job->disk;
}

static struct run the_run;	/* one execution per process at a time */

static void
run_init(struct run *r, const struct sbx_exec_env *env,
    const struct sbx_job *job, const struct sbx_output *out,
    struct sbx_result *res)
{
	/* not buf (last): scratch space whose untouched pages then cost
	 * no fault, in this process nor in the children it forks */
	memset(r, 0, offsetof(struct run, buf));
	memset(res, 0, sizeof *res);
	r->env = env;
	r->job = job;
	r->out = out;
	r->res = res;
	r->stop = -1;
	r->tfd_deadline = r->tfd_tick = -1;
	r->saved_cwd = -1;
	res->reason = SBX_JAIL_FAILED;
	res->kind = SBX_KIND_NONE;
}

/* The jail and the started command: r->job's files written by the jail,
 * or none (a warm slot, whose loader takes them on stdin). 0, or -1 with
 * the reason in r->res. */
static int
prepare(struct run *r)
{
	const struct sbx_exec_env *env = r->env;
	const struct sbx_job *job = r->job;
	struct jail_request rq;
	struct spawn_spec spec;
	struct cmd c;
	char err[512];
	size_t nf = 0;

	if (job->nfiles + (env->deny_text != NULL) > JAIL_FILES_MAX) {
		snprintf(err, sizeof err, "more files than the jail takes (%d)",
		    JAIL_FILES_MAX);
		set_detail(r, err);
		return -1;
	}
	for (size_t i = 0; i < job->nfiles; i++)
		r->jf[nf++] = (struct jail_file){ job->files[i].name,
		    job->files[i].data, job->files[i].len, 0644 };
	if (job->lang == SBX_LANG_JAVA && env->deny_text)
		r->jf[nf++] = (struct jail_file){ ".airlock-java-deny",
		    env->deny_text, env->deny_len, 0444 };
	job_limits(r);
	rq = (struct jail_request){ .id = job->id, .tenant = job->tenant,
	    .registration = NULL, .work = 1, .files = r->jf, .nfiles = nf,
	    .limits = &r->lim, .self = job->lang == SBX_LANG_JAVA };
	if (jail_lease_open(r->env->jail, &rq, &r->lease, err,
	    sizeof err) != 0) {
		set_detail(r, err);
		return -1;
	}
	r->lease_open = 1;
	if (build_cmd(r, &c) != 0) {
		set_detail(r, "cannot build the command line");
		return -1;
	}
	r->tfd_deadline = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC |
	    TFD_NONBLOCK);
	r->tfd_tick = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC |
	    TFD_NONBLOCK);
	if (r->tfd_deadline < 0 || r->tfd_tick < 0) {
		snprintf(err, sizeof err, "timerfd: %s", strerror(errno));
		set_detail(r, err);
		return -1;
	}
	spec = (struct spawn_spec){ .argv = c.argv, .envp = c.envp,
		.jail = jail_lease_enter, .jail_ctx = &r->lease,
		.cgroup_fd = jail_lease_cgroup_fd(&r->lease),
		.pass_fd = jail_lease_pass_fd(&r->lease) };
	spec.into_cgroup = spec.cgroup_fd >= 0;
	r->t_start = mono_ms();
	if (none_prepare(r, err, sizeof err) != 0 ||
	    spawn_start(&spec, &r->ch, err, sizeof err) != 0) {
		none_restore(r);
		set_detail(r, err);
		return -1;
	}
	none_restore(r);
	r->spawned = 1;
	r->in_open = r->open[1] = r->open[2] = 1;
	if (jail_lease_started(&r->lease, err, sizeof err) != 0) {
		set_detail(r, err);
		stop(r, SBX_JAIL_FAILED);
		return -1;
	}
	return 0;
}

/* Every process of the execution killed and reaped, its jail removed. */
static void
run_close(struct run *r)
{
	char err[512];
	int found, st;

	if (r->spawned) {
		if (r->in_open)
			close(r->ch.in);
		close(r->ch.out);
		close(r->ch.err);
		close(r->ch.pidfd);
	}
	/* every process of the execution is dead: reap the last of them
	 * (pid 1 of a pid namespace may come back to us as a zombie) */
	if (r->spawned)
		(void)spawn_kill_all(0);
	if (r->lease_open && jail_lease_close(&r->lease, r->spawned ?
	    r->ch.pid : -1, &st, &found, err, sizeof err) != 0 &&
	    r->res->detail[0] == '\0')
		set_detail(r, err);
	if (r->tfd_deadline >= 0)
		close(r->tfd_deadline);
	if (r->tfd_tick >= 0)
		close(r->tfd_tick);
	free(r->record);
	r->record = NULL;
	r->spawned = r->lease_open = 0;
	r->tfd_deadline = r->tfd_tick = -1;
}

/* The started command, from r->t_start on: its stdin, the limits, the
 * result, the end. */
static int
run_go(struct run *r)
{
	const struct sbx_job *job = r->job;
	struct itimerspec its = { { 0, TICK_MS * 1000000 },
		{ 0, TICK_MS * 1000000 } };
	int rc;

	r->stage_pending = job->lang == SBX_LANG_JAVA;
	sbx_stage_init(&r->stage);
	timerfd_settime(r->tfd_tick, 0, &its, NULL);
	arm_deadline(r, r->t_start + (int64_t)job->lim.timeout_ms);
	if (r->in_len[0] + r->in_len[1] == 0) {
		close(r->ch.in);
		r->in_open = 0;
	}
	loop(r);
	if (!r->exited)
		stop(r, r->stop >= 0 ? r->stop : SBX_EXITED);
	finish(r);
	rc = r->abandoned ? -1 : 0;
	run_close(r);
	return rc;
}

int
sbx_exec(const struct sbx_exec_env *env, const struct sbx_job *job,
    const struct sbx_output *out, struct sbx_result *res)
{
	struct run *r = &the_run;

	if (r->slot_job.id)
		sbx_exec_warm_discard();
	run_init(r, env, job, out, res);
	if (prepare(r) != 0) {
		run_close(r);
		return 0;
	}
	r->in_seg[1] = job->input;
	r->in_len[1] = job->input_len;
	return run_go(r);
}

static int
no_emit(void *ctx, int stream, const uint8_t *p, size_t n)
{
	(void)ctx;
	(void)stream;
	(void)p;
	(void)n;
	return -1;
}

static size_t
no_room(void *ctx)
{
	(void)ctx;
	return 0;
}

static const struct sbx_output no_output = { NULL, no_emit, no_room, -1,
	NULL, NULL };

/* A warm Java slot is ready when its stage says so on stdout
 * (SBX_STAGE_READY): its JVM started, javac warmed up. A stage that dies
 * or says anything else, a signal on env->sigfd, or WARM_JAVA_MS fail
 * it. The tool's CPU limit is the cgroup's reading (the rlimit holds the
 * warm-up's allowance too): no CPU cgroup, no warm Java slot. 0, or -1
 * with a message. */
#define WARM_JAVA_MS 300000
static int
java_ready(struct run *r, char *err, size_t errlen)
{
	int64_t until = mono_ms() + WARM_JAVA_MS;
	uint8_t got[SBX_STAGE_READY_LEN];
	struct jail_stats st;
	size_t have = 0;

	jail_lease_stats(&r->lease, &st);
	if (!st.has_cpu) {
		snprintf(err, errlen, "a warm Java slot needs a CPU cgroup "
		    "(cpuacct on v1, cpu on v2): RLIMIT_CPU counts the JVM's "
		    "warm-up; run without --warm java");
		return -1;
	}
	while (have < sizeof got) {
		struct pollfd pf[2] = { { r->ch.out, POLLIN, 0 },
			{ r->env->sigfd, POLLIN, 0 } };
		int64_t left = until - mono_ms();
		ssize_t n;
		int rc;

		if (left <= 0) {
			snprintf(err, errlen, "the warm JVM was not ready "
			    "within %d s", WARM_JAVA_MS / 1000);
			return -1;
		}
		rc = poll(pf, 2, (int)left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0 || pf[1].revents) {
			snprintf(err, errlen, "the warm JVM was not ready: "
			    "stopped");
			return -1;
		}
		if (rc == 0)
			continue;
		n = read(r->ch.out, got + have, sizeof got - have);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "the warm JVM ended before it "
			    "was ready");
			return -1;
		}
		have += (size_t)n;
	}
	if (memcmp(got, SBX_STAGE_READY, sizeof got) != 0) {
		snprintf(err, errlen, "the warm Java stage failed to start");
		return -1;
	}
	return 0;
}

int
sbx_exec_warm_prepare(const struct sbx_exec_env *env,
    const struct sbx_job *slot, char *err, size_t errlen)
{
	struct run *r = &the_run;

	if ((slot->lang != SBX_LANG_PYTHON && slot->lang != SBX_LANG_JAVA) ||
	    slot->nfiles != 0 || slot->input_len != 0) {
		snprintf(err, errlen, "warm slots are for Python and Java");
		return -1;
	}
	run_init(r, env, &r->slot_job, &no_output, &r->slot_res);
	r->slot_job = *slot;
	if (prepare(r) != 0 || (slot->lang == SBX_LANG_JAVA &&
	    java_ready(r, r->slot_res.detail, sizeof r->slot_res.detail)
	    != 0)) {
		snprintf(err, errlen, "%s", r->slot_res.detail);
		stop(r, SBX_SHUTDOWN);
		run_close(r);
		memset(&r->slot_job, 0, sizeof r->slot_job);
		return -1;
	}
	return 0;
}

const struct sbx_job *
sbx_exec_warm_slot(void)
{
	return the_run.slot_job.id ? &the_run.slot_job : NULL;
}

uint64_t
sbx_exec_warm_memory(void)
{
	struct jail_stats st;

	if (!the_run.slot_job.id)
		return 0;
	jail_lease_stats(&the_run.lease, &st);
	return st.has_memory ? st.peak_memory : 0;
}

int
sbx_exec_warm_pidfd(void)
{
	return the_run.slot_job.id && the_run.spawned ? the_run.ch.pidfd : -1;
}

void
sbx_exec_warm_discard(void)
{
	struct run *r = &the_run;

	if (!r->slot_job.id)
		return;
	stop(r, SBX_SHUTDOWN);
	run_close(r);
	memset(&r->slot_job, 0, sizeof r->slot_job);
}

int
sbx_exec_warm_run(const struct sbx_job *job, const struct sbx_output *out,
    struct sbx_result *res)
{
	struct run *r = &the_run;
	struct jail_stats st;

	memset(res, 0, sizeof *res);
	res->reason = SBX_JAIL_FAILED;
	res->kind = SBX_KIND_NONE;
	if (!r->slot_job.id || !sbx_warm_fits(&r->slot_job, job) ||
	    strcmp(job->id, r->slot_job.id) != 0) {
		static const char no[] = "no warm slot for this execution";

		sbx_detail_set(res->detail, sizeof res->detail,
		    (const uint8_t *)no, sizeof no - 1);
		return 0;
	}
	r->job = job;
	r->out = out;
	r->res = res;
	if (sbx_warm_record(job, &r->record, &r->in_len[0]) != 0) {
		set_detail(r, "cannot hand the files to the warm slot");
		stop(r, SBX_JAIL_FAILED);
		run_close(r);
		memset(&r->slot_job, 0, sizeof r->slot_job);
		return 0;
	}
	r->in_seg[0] = r->record;
	r->in_seg[1] = job->input;
	r->in_len[1] = job->input_len;
	/* the slot's own start is the service's: what the call uses is
	 * counted from here */
	jail_lease_stats(&r->lease, &st);
	r->cpu_base = st.has_cpu ? st.cpu_usec : 0;
	/* a warm JVM's warm-up (javac's) is no tool's peak: the peak
	 * counts from the call (v1); v2's memory.peak cannot be restarted,
	 * so finish compares it with its value now (docs/SANDBOX.md) */
	if (job->lang == SBX_LANG_JAVA &&
	    jail_lease_peak_reset(&r->lease) != 0 && st.has_memory) {
		r->peak_kept = 1;
		r->peak_base = st.peak_memory;
	}
	r->t_start = mono_ms();
	memset(&r->slot_job, 0, sizeof r->slot_job);
	return run_go(r);
}
