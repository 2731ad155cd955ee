#!/usr/bin/env python3
"""relay_watch.py - run one command the way core runs the relay, and watch it.

  python3 test/relay_watch.py [OPTIONS] -- COMMAND [ARGS...]

The command's stdin, stdout and stderr are pipes whose ends this parent
keeps too (so they are open files shared with the child, as core's are);
their file status flags (fcntl F_GETFL) are read before the start and
after the end. stdin is held open unless --stdin-eof.

  --hold-out / --hold-err  never read that pipe (a reader that stalls)
  --close-out              close stdout's read end at once (a reader gone)
  --term-after SEC         send a signal SEC seconds after the start
  --signal NAME            which: TERM (default), INT or HUP
  --bound SEC              give up (SIGKILL) after SEC seconds (default 30)
  --out FILE / --err FILE  where to keep what was read (default: dropped)

Prints one line of key=value: exit (the status, 128+N for a signal N,
"killed" if the bound was hit), flags (same|changed), rss_kb (the peak
VmHWM sampled), cpu_ms (user+system of the command), after_term (exit
within the bound after SIGTERM: yes|no|-). Times are reported, never
asserted here.
"""
import fcntl
import os
import select
import signal
import subprocess
import sys
import time


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: relay_watch.py [OPTIONS] -- COMMAND [ARGS...]")
    opts, cmd = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    hold_out = "--hold-out" in opts
    hold_err = "--hold-err" in opts
    stdin_eof = "--stdin-eof" in opts

    def val(name, default):
        return opts[opts.index(name) + 1] if name in opts else default

    term_after = float(val("--term-after", "-1"))
    bound = float(val("--bound", "30"))
    out_file, err_file = val("--out", None), val("--err", None)

    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    r_in, w_in = os.pipe()
    shared = (r_in, w_out, w_err)   # the child's stdin, stdout, stderr
    before = [fcntl.fcntl(fd, fcntl.F_GETFL) for fd in shared]
    proc = subprocess.Popen(cmd, stdin=r_in, stdout=w_out, stderr=w_err)
    if stdin_eof:
        os.close(w_in)
    if "--close-out" in opts:
        os.close(r_out)
        hold_out = True
    sinks = {r_out: open(out_file, "wb") if out_file and not hold_out else None,
             r_err: open(err_file, "wb") if err_file else None}
    watch = [fd for fd, hold in ((r_out, hold_out), (r_err, hold_err)) if not hold]
    start = time.monotonic()
    termed = None
    rss = 0
    cpu = 0
    status = None
    while status is None:
        now = time.monotonic()
        if term_after >= 0 and termed is None and now - start >= term_after:
            proc.send_signal(getattr(signal, "SIG" + val("--signal", "TERM")))
            termed = now
        if now - start > bound:
            proc.kill()
            os.waitpid(proc.pid, 0)
            proc.returncode = -9
            status = "killed"
            break
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        rss = max(rss, int(line.split()[1]))
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
                cpu = ((int(fields[11]) + int(fields[12])) * 1000 //
                       os.sysconf("SC_CLK_TCK"))
        except (OSError, ValueError, IndexError):
            pass
        ready, _, _ = select.select(watch, [], [], 0.05)
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if not data:
                watch.remove(fd)
            elif sinks[fd]:
                sinks[fd].write(data)
        pid, wstatus, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            proc.returncode = 0     # reaped here, not by Popen
            cpu = int((usage.ru_utime + usage.ru_stime) * 1000)
            status = (128 + os.WTERMSIG(wstatus) if os.WIFSIGNALED(wstatus)
                      else os.WEXITSTATUS(wstatus))
    # what is still buffered in the pipes we did read
    for fd in watch:
        os.set_blocking(fd, False)
        try:
            while True:
                data = os.read(fd, 1 << 16)
                if not data:
                    break
                if sinks[fd]:
                    sinks[fd].write(data)
        except BlockingIOError:
            pass
    after = [fcntl.fcntl(fd, fcntl.F_GETFL) for fd in shared]
    for f in sinks.values():
        if f:
            f.close()
    after_term = "-" if termed is None else ("yes" if status != "killed" else "no")
    print(f"exit={status} flags={'same' if after == before else 'changed'} "
          f"rss_kb={rss} cpu_ms={cpu} after_term={after_term}")


main()
